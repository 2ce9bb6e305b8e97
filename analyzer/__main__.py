"""The ``analyzer`` console script and ``python -m analyzer``: run the command line.

The command line is imported inside ``run``, not at the top: a worker process started by "spawn"
re-imports the script that started its parent, and a worker needs none of the command line (every
command and game, typer, rich), only the module of its task.
"""


def run() -> None:
    """Run the ``analyzer`` command line."""
    from analyzer.cli.app import main

    main()


if __name__ == "__main__":
    run()
