"""Next Station's whole-game proof: branch and price over whole lines (``NOTEBOOK.md``).

What it gives the product is data: the bounds in ``data/nextstation/challenges.csv``, written by
``python -m research.nextstation.challenges``."""
