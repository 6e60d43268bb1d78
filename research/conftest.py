"""The research tests reuse the product's test helpers (``tests/conftest.py``'s ``run_cli``,
``tests/nextstation/ns_helpers.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests", ROOT / "tests" / "nextstation"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
