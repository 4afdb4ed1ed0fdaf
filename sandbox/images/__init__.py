"""Runner images: one Dockerfile per language plus the offline build (build.py)."""
