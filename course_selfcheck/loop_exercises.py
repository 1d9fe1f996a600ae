"""Graders of the exercises that change the loop itself (notebooks 3 to 6), where the notebooks
import them from; each lives in its own module of the exercises package."""

from .exercises.exercise_3 import check_exercise_3
from .exercises.exercise_4 import SLOW_READ, check_exercise_4
from .exercises.exercise_5 import check_exercise_5
from .exercises.exercise_6 import check_exercise_6, check_fallback

__all__ = ["SLOW_READ", "check_exercise_3", "check_exercise_4", "check_exercise_5", "check_exercise_6",
           "check_fallback"]
