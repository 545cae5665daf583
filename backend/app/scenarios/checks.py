"""The second validation layer: what only the simulator knows (flow counts, its own rules)."""

import logging
from typing import Any

from app.core import simulator
from app.core.config import get_settings

log = logging.getLogger(__name__)


def check_with_simulator(document: dict[str, Any]) -> bool:
    """Run `fabricsim validate` when enabled and present; True if it checked the document.

    Raises simulator.SimulatorRejected (-> 422 at the simulator's path) on refusal.
    """
    if not get_settings().SIMULATOR_VALIDATION:
        return False
    try:
        simulator.validate(document)
    except simulator.SimulatorUnavailable as exc:
        log.warning("scenario not checked by the simulator: %s", exc)
        return False
    return True
