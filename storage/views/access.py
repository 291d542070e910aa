"""Permission checks shared by the storage pages.

Every page needs `storage.access_storage` (Auditors have it); every change to the bucket needs
`storage.manage_files` as well, which only Content managers hold.
"""

from __future__ import annotations

from backoffice.security.access import access_guard

ACCESS = "storage.access_storage"
MANAGE = "storage.manage_files"

needs = access_guard(ACCESS)
