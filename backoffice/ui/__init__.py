"""What staff pages share: dashboard and tiles, menus, error, account and audit pages, CSV."""
