"""Tables, statistics, figures, the results store and progress display."""
