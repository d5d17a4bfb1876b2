"""Every tracker shows an engine's refusal as one sentence; a player's or model's name keeps its case."""

from core.games.sentences import as_sentence


def test_a_refusal_reads_as_a_sentence_and_a_name_keeps_its_case():
    assert as_sentence("a Push needs a model in melee", ["alice"]) == "A Push needs a model in melee."
    assert as_sentence("alice must choose first.", ["alice"]) == "alice must choose first."
    assert as_sentence("  already ready..  ", []) == "Already ready."
    assert as_sentence("", ["alice"]) == "Not allowed now."
    assert as_sentence("", [], empty="Not allowed.") == "Not allowed."
