"""The CLI's arguments, declared apart from the commands that carry them out.

Every sub-command names its handler as ``"module:function"`` of :mod:`kortty_rag.cli`; only the
chosen one is imported (:func:`kortty_rag.cli.handler_of`), so ``--version``, ``--help`` and a
mistake in the arguments answer without loading the core (numpy, the index, the models).
"""
