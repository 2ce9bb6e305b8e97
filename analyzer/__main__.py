"""``python -m analyzer`` runs the command line."""

from analyzer.cli.app import main

main()
