"""CLI command groups. Each module registers its commands on the shared typer groups in
:mod:`tubedeck.cli`; the commands parse options, call the library and print, nothing more."""
