"""Does the switch buffer bound DCQCN's start-up overshoot? The validation incast (12 MB shared
buffer, PFC dynamic threshold alpha 1/16, the `fabricsim` default) beside the same incast with a
four times stricter threshold (alpha 1/64): whole-run peak queue, PFC pauses, goodput per ms.

    python -m validation.dcqcn_startup [--flows 2 4 8 16] [--ms 30]

With the dynamic threshold an ingress port pauses at alpha S / (1 + alpha N) bytes (S the shared
pool, N congested ingress ports; model test 8): at N = 8 and 12 MB less headroom that is about
490 KB per port at 1/16 and 165 KB at 1/64 (before 208-byte cell rounding).
"""

import argparse
import sys

from validation.incast import IncastSpec, run_incast


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flows", type=int, nargs="+", default=[2, 4, 8, 16])
    parser.add_argument("--ms", type=float, default=30.0)
    args = parser.parse_args(argv)
    print("| N | PFC alpha | peak queue (whole run) | PFC pauses | goodput per ms, ms 2..9 (fraction of capacity) |")
    print("|---|---|---|---|---|")
    for n in args.flows:
        for label, pfc in (("1/16 (default)", ()), ("1/64", (("alpha", 1 / 64),))):
            r = run_incast(IncastSpec(n=n, duration_ms=args.ms, warmup_ms=args.ms / 3, pfc=pfc))
            ramp = " ".join(f"{g:.2f}" for g in r.per_ms_goodput[:8])
            print(f"| {n} | {label} | {r.max_queue_whole_run / 1e6:.2f} MB | {r.pauses} | {ramp} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
