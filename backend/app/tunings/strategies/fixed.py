"""Fixed points: the vendor's recommended settings and an operator rule of thumb.

Both are given as model values by scenario path (bytes, fractions, presets), evaluated once.
Sources (docs/tuning.md has the full citations):
- vendor: NVIDIA Cumulus Linux "RDMA over Converged Ethernet - RoCE", default lossless RoCE
  mode: ECN on the RoCE traffic class with min threshold 150 KB, max 1.5 MB, probability 100 %;
  NIC: ConnectX firmware DCQCN defaults (NVIDIA DOCA "DCQCN CC parameters"), our
  `nic.cc.preset = "nvidia-default"`.
- experience: the DCQCN paper's marking thresholds (Zhu et al., SIGCOMM 2015: Kmin 5 KB,
  Kmax 200 KB, Pmax 1 %), the settings operators copy most, with the dynamic-threshold alpha
  1/16 that Microsoft ran (Guo et al., SIGCOMM 2016, seeds/001) and headroom sized by the
  cable-delay rule (`auto`).
"""

from dataclasses import dataclass
from typing import Any

from app.tunings.strategies.base import Request, Strategy

VENDOR_SETTINGS: dict[str, Any] = {
    "switch.ecn.kmin_bytes": 150_000,
    "switch.ecn.kmax_bytes": 1_500_000,
    "switch.ecn.pmax": 1.0,
    "nic.cc.preset": "nvidia-default",
}
EXPERIENCE_SETTINGS: dict[str, Any] = {
    "switch.ecn.kmin_bytes": 5_000,
    "switch.ecn.kmax_bytes": 200_000,
    "switch.ecn.pmax": 0.01,
    "switch.pfc.alpha": 0.0625,
    "switch.pfc.headroom_bytes": "auto",
}


@dataclass
class FixedStrategy(Strategy):
    """Evaluates one set of model values once (`options["settings"]` overrides the default)."""

    defaults: dict[str, Any] | None = None
    asked: bool = False

    def ask(self) -> list[Request]:
        if self.asked:
            return []
        self.asked = True
        settings = self.options.get("settings") or self.defaults or {}
        return self._charge([Request(point=None, overrides=tuple(sorted(settings.items())))])

    def tell(self, request: Request, losses: tuple[float, ...]) -> None:
        self._remember(request, losses)


def vendor(**kwargs) -> FixedStrategy:
    """NVIDIA's recommended switch ECN and NIC DCQCN settings."""
    return FixedStrategy(name="vendor", defaults=VENDOR_SETTINGS, **kwargs)


def experience(**kwargs) -> FixedStrategy:
    """The operators' rule of thumb (DCQCN paper thresholds, alpha 1/16)."""
    return FixedStrategy(name="experience", defaults=EXPERIENCE_SETTINGS, **kwargs)
