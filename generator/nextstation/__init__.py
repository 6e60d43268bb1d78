"""Next Station: London print faces."""
