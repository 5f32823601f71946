"""Memory policy for results that workers hand to the UI and that live as long as it does."""
from __future__ import annotations

import gc


def keep_out_of_collections() -> None:
    """Move every object alive now out of the cycle collector's reach (``gc.freeze``).

    Workers build structures that live as long as the app (indexes, the stepper's steps,
    documents' caches). Left in the collector's oldest generation, each full collection
    walks all of them while holding the GIL: 0.1-0.3 s in which no key is handled. Frozen
    objects are still freed by reference counting; only cyclic garbage alive at this
    moment is kept.
    """
    gc.freeze()
