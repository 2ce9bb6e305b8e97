"""Sloppy Seconds (RULES.md section 3): rules, kernels, policies, batch play and experiments."""
