"""The desktop app (PySide6). The only package that imports Qt; everything it does, the core does headless."""
