"""The desktop app's dialogs: create a store, the model wizard, the review, test search and
the profile editor."""
