import { ErrorBox } from "../../../components/States";
import { AcceleratorPanel } from "./AcceleratorPanel";
import { DeadlockPanel } from "./DeadlockPanel";
import { PingmeshMatrix } from "./PingmeshMatrix";
import { TransportPanel } from "./TransportPanel";
import { useRunDiagnostics } from "./useDiagnostics";

/** The panels for a run's faults/deadlocks, Pingmesh, DCI accelerator and QP accounting; nothing when it has none. */
export function DiagnosticsPanels({ runId }: { runId: string }) {
  const d = useRunDiagnostics(runId);
  if (d.error) return <ErrorBox error={d.error} title="Could not load faults and Pingmesh" />;
  if (!d.data) return null;
  return (
    <>
      {d.data.faults && <DeadlockPanel faults={d.data.faults} />}
      {d.data.pingmesh && <PingmeshMatrix pingmesh={d.data.pingmesh} />}
      {d.data.dci_accelerator && <AcceleratorPanel report={d.data.dci_accelerator} />}
      {d.data.transport && <TransportPanel report={d.data.transport} />}
    </>
  );
}
