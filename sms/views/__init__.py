"""The SMS staff pages, one module per page family; URLs in sms/urls.py."""
