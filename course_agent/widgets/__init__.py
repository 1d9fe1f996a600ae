"""Jupyter widgets for the course: the live messages view, the approval prompt, the stepper."""

from .approval import ApprovalPrompt, WidgetApprover
from .messages_view import MessagesView, ObservedMessages
from .stepper import Stepper, next_action

__all__ = ["ApprovalPrompt", "MessagesView", "ObservedMessages", "Stepper", "WidgetApprover", "next_action"]
