"""Research that does not ship: not in the wheel, imported by no ``tubedeck`` command, tested by
``make test-research`` (not ``make test``). It may import the product; the product never imports it."""
