"""A toy training loop that writes a perfdx step log (no GPU; perfdx.StepLog, or
python/perfdx/steplog.py alone where perfdx is not installed).

    python3 examples/step_log/train_loop.py base.jsonl --work-ms 20
    python3 examples/step_log/train_loop.py new.jsonl  --work-ms 15
    perfdx check new.jsonl --against base.jsonl        # improved: about -25%

The "step" sleeps --work-ms plus a little random noise, standing in for the
forward/backward/optimizer work of a real model.
"""

import argparse
import os
import random
import sys
import time

try:
    from perfdx import StepLog
except ImportError:  # perfdx not importable: its step-log writer alone (standard library only)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "python", "perfdx"))
    from steplog import StepLog  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("log", help="the step log to append to")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--work-ms", type=float, default=20.0)
    parser.add_argument("--noise-ms", type=float, default=1.0)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    log = StepLog(args.log, model="toy", work_ms=args.work_ms)
    for _ in range(args.steps):
        with log.step(samples=args.batch_size):
            time.sleep((args.work_ms + rng.uniform(0, args.noise_ms)) / 1000)
    log.close()


if __name__ == "__main__":
    main()
