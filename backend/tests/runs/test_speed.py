"""This instance's packet-level speed, from its own recent runs (app/runs/speed.py): the medians of
events per second and per delivered payload frame over successful packet-level runs on one
thread; flow-level, multi-threaded and failed runs do not count; nothing before the first run."""

from datetime import datetime, timedelta, timezone

from sqlalchemy import create_engine
from sqlalchemy.orm import Session

from app.core.db import Base
from app.runs.models import Run
from app.runs.speed import packet_speed, payload_frames
from app.scenarios.models import ScenarioRow


def test_packet_speed_is_the_median_of_recent_runs(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 's.db'}")
    Base.metadata.create_all(engine)
    t0 = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with Session(engine) as session:
        assert packet_speed(session) is None
        # MTU 1000 and 4000; 10 us of warm-up on the second
        session.add_all(
            [
                ScenarioRow(id="a", name="a", content_hash="a", document={}),
                ScenarioRow(id="b", name="b", content_hash="b", document={"nic": {"mtu_bytes": 4000}, "warmup_us": 10}),
            ]
        )
        # (scenario, events, wall_s, Gbit/s, duration ns, engine, threads, status)
        runs = [
            ("a", 8e6, 2.0, 80.0, 100_000, "packet", 1, "SUCCEEDED"),  # 1,000 frames
            ("b", 3e6, 0.5, 80.0, 110_000, "packet", 1, "SUCCEEDED"),  # 250 frames
            ("a", 4e6, 2.0, 40.0, 100_000, "packet", 1, "SUCCEEDED"),  # 500 frames
            ("a", 9e9, 1.0, 80.0, 100_000, "flow", 1, "SUCCEEDED"),
            ("a", 9e9, 1.0, 80.0, 100_000, "packet", 4, "SUCCEEDED"),
            ("a", 9e9, 1.0, 80.0, 100_000, "packet", 1, "FAILED"),
        ]
        for i, (sid, events, wall, gbps, dur, eng, threads, status) in enumerate(runs):
            session.add(
                Run(
                    id=f"r{i}",
                    scenario_id=sid,
                    seed=1,
                    status=status,
                    events=events,
                    wall_s=wall,
                    throughput_gbps=gbps,
                    duration_ns=dur,
                    engine=eng,
                    threads=threads,
                    finished_at=t0 + timedelta(seconds=i),
                )
            )
        session.commit()
        assert payload_frames({}, 80.0, 100_000) == 1000
        assert payload_frames({"nic": {"mtu_bytes": 4000}, "warmup_us": 10}, 80.0, 110_000) == 250
        speed = packet_speed(session)
        # events/s 4e6, 6e6, 2e6 -> 4e6; events per frame 8,000, 12,000, 8,000 -> 8,000
        assert (speed.events_per_s, speed.events_per_frame, speed.runs) == (4e6, 8000, 3)
        # the two most recent only: 6e6 and 2e6, 12,000 and 8,000
        assert packet_speed(session, limit=2).events_per_frame == 10000
    engine.dispose()
