"""Loads the layer markers (tests/layer_markers.py) for every test path: tests/ and the doctests of src/barbu."""

pytest_plugins = ["tests.layer_markers"]
