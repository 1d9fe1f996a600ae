"""Readings of a learner's own sentence, by what it is made of rather than by a list of whole phrases: a denial is a
negation next to the side that decides (a person, an approval), a cut is any word of an answer stopped short or of a
limit met. A list of phrases loses to the next learner's words; these tests still fail a message that says only that
something failed, or that claims the call went through.

One module per reading: `denials` (exercise 7: the report after a person's no), `placing` (that report's every
clause placed, fail closed), `undone` (a no voided, an objection negated, the merge said to be in main, the last word
handed to the model, another way into main, in the same report), `deciders` (who said no), `cuts` (exercise 6: the
error at a stop), and `words`, what they share."""

from .cuts import CutReading, cut_reading, denies_cut, names_the_cause, says_cut, says_not_run, speaks_of_its_stop
from .deciders import a_no_not_a_persons, a_no_not_a_persons_in, names_the_decider, people_in
from .denials import holds_a_no, invites_again, invites_in_other_words, invites_the_call, inviting_sentence, not_yet
from .placing import says_denied, unplaced_clause
from .words import NEAR, retracts

__all__ = ["NEAR", "CutReading", "a_no_not_a_persons", "a_no_not_a_persons_in", "cut_reading", "denies_cut",
           "holds_a_no", "invites_again", "invites_in_other_words", "invites_the_call", "inviting_sentence",
           "names_the_cause",
           "names_the_decider", "not_yet", "people_in", "retracts", "says_cut", "says_denied", "says_not_run",
           "speaks_of_its_stop", "unplaced_clause"]
