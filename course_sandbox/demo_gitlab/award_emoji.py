"""Emoji reactions on merge requests and on their comments (docs.gitlab.com/api/emoji_reactions/).

Bots react to say they saw a command (pr-agent puts `eyes` on every comment it answers) and
take the reaction back when done. GitLab's answers (lib/api/award_emoji.rb): an unknown
awardable or award is `404 Not found`; a second award of the same emoji by the same user, or a
name that is no emoji, is `404 Award Emoji ["<model error>"] Not Found`; deleting is 204.
"""

import threading
from collections.abc import Callable
from dataclasses import dataclass

from .errors import GitLabError, not_found
from .users import user

EMOJI_NAMES = frozenset((
    "thumbsup", "thumbsdown", "eyes", "rocket", "tada", "heart", "smile", "smiley", "laughing", "confused",
    "white_check_mark", "heavy_check_mark", "x", "warning", "bulb", "memo", "mag", "bug", "fire", "star",
    "clap", "pray", "ok_hand", "wave", "raised_hands", "thinking", "thinking_face", "hourglass",
    "hourglass_flowing_sand",
    "robot", "robot_face", "speech_balloon", "question", "exclamation", "100", "sparkles", "zap", "lock", "wrench",
    "hammer", "construction", "checkered_flag", "arrow_up", "arrow_down", "red_circle", "green_circle",
    "slight_smile", "slightly_smiling_face", "sweat_smile", "joy", "cry", "sob", "see_no_evil", "muscle",
    "coffee", "beers", "trophy", "medal", "gift", "no_entry", "stop_sign", "recycle", "rotating_light",
))
"""The emoji the demo knows: GitLab knows every Unicode emoji by name; a bot uses a few of these."""
ALIASES = {"+1": "thumbsup", "-1": "thumbsdown", "thumbs_up": "thumbsup", "thumbs_down": "thumbsdown"}
"""Names GitLab normalises (TanukiEmoji aliases) before it stores the award."""
TAKEN = '["User has already been taken"]'
NOT_AN_EMOJI = '["Name is not a valid emoji name"]'


@dataclass
class Award:
    id: int
    name: str
    username: str
    created_at: str
    awardable_type: str
    awardable_id: int

    def view(self) -> dict:
        """Entities::AwardEmoji (`url` is only set for custom emoji)."""
        return {"id": self.id, "name": self.name, "user": user(self.username), "created_at": self.created_at,
                "updated_at": self.created_at, "awardable_id": self.awardable_id,
                "awardable_type": self.awardable_type, "url": None}


class Awards:
    """Every award of the project; ids are unique across awardables, as in GitLab."""

    def __init__(self) -> None:
        self._awards: list[Award] = []
        self._next_id = 1
        self._lock = threading.Lock()

    def of(self, awardable_type: str, awardable_id: int) -> list[Award]:
        return [a for a in self._awards if (a.awardable_type, a.awardable_id) == (awardable_type, awardable_id)]

    def find(self, awardable_type: str, awardable_id: int, award_id: int) -> Award:
        found = next((a for a in self.of(awardable_type, awardable_id) if a.id == award_id), None)
        if found is None:
            raise not_found()
        return found

    def add(self, awardable_type: str, awardable_id: int, name: object, username: str,
            clock: Callable[[], str]) -> Award:
        """A new award, stamped by `clock` once it is accepted (a refused one moves no time)."""
        if not isinstance(name, str):
            raise GitLabError(400, {"error": "name is missing" if name is None else "name is invalid"})
        name = ALIASES.get(name, name)
        if name not in EMOJI_NAMES:
            raise GitLabError(404, {"message": f"404 Award Emoji {NOT_AN_EMOJI} Not Found"})
        with self._lock:
            if any(a.name == name and a.username == username for a in self.of(awardable_type, awardable_id)):
                raise GitLabError(404, {"message": f"404 Award Emoji {TAKEN} Not Found"})
            award = Award(self._next_id, name, username, clock(), awardable_type, awardable_id)
            self._next_id += 1
            self._awards.append(award)
        return award

    def delete(self, award: Award) -> None:
        with self._lock:
            if award in self._awards:  # two deletes at once: the second finds it gone
                self._awards.remove(award)

    def forget(self, awardable_type: str, awardable_id: int) -> None:
        """A deleted note takes its awards with it."""
        with self._lock:
            self._awards = [a for a in self._awards
                            if (a.awardable_type, a.awardable_id) != (awardable_type, awardable_id)]
