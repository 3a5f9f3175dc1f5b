"""The seed derivation is pinned: a change would silently change every seeded deal, bot and
server game (and the records written from them)."""

from cambio.seeds import derive_seed


def test_derived_seeds_are_pinned():
    assert derive_seed(12345, "game", 1) == 3955924797874180291
    assert derive_seed(0, "delays") == 8936038345082731015
    assert derive_seed(7, "bot", 2) == 8559378657223739468
    assert derive_seed(42, 3) == 8531335644594329064
    assert derive_seed(42, 3, 1, 1) == 905186735075041906


def test_labels_separate_children():
    children = {derive_seed(5, *labels) for labels in [(), (1,), (2,), (1, 2), (12,), ("1",)]}
    assert len(children) == 5  # (1,) and ("1",) are the same text, by design
    assert all(0 <= c < 2**63 for c in children)
