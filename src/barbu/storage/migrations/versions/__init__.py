"""The revisions of the schema, oldest first."""
