"""Sloppy Seconds (docs/rules.md section 3): rules, kernels, policies, batch play and experiments."""
