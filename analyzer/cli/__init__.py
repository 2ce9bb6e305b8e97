"""Command-line interface: Typer sub-apps composed in app.py."""
