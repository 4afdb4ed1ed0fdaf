"""Developer tools that are not part of the application: not installed, not in the image."""
