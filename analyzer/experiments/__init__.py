"""Experiment specs and runners: chunking, seeding, workers."""
