"""Staff pages of the top-up app, one module per area; every view checks its permission."""
