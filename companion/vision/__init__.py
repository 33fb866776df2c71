"""Camera adapters: turn frames into domain values (board positions, die readings).

Kept free of heavy imports so that ``import companion.vision`` costs nothing;
import the submodules (``companion.vision.dice`` ...) where they are used.
"""
