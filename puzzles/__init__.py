"""Puzzle adapters built on the dlx engine: each parses, builds a Problem, decodes."""
