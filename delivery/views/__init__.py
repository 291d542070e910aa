"""Staff pages of the delivery app, one module per area; every view checks its permission."""
