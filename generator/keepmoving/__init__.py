"""Keep Moving print faces."""
