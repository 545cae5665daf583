// A collective job's numbers as the results page shows them (docs/result-format.md, "jobs"):
// the cards and the iteration timeline are computed here from the same `Job`, so they agree.
import type { Job, JobStep } from "../../../lib/api/resultTypes";
import { formatBytes, formatCount, formatDurationUs, formatGbps, formatPercent } from "../../../lib/format";
import type { Card } from "../components/SummaryCards";

/** NCCL-tests' bus-bandwidth factor, in words, for the op over n ranks. */
export function busFactorText(job: Pick<Job, "op" | "ranks" | "bus_factor">): string {
  const n = job.ranks;
  const formula = job.op === "all_reduce" ? `2(n−1)/n` : job.op === "broadcast" ? "1" : `(n−1)/n`;
  return `${formula} = ${+job.bus_factor.toFixed(4)} for n = ${n}`;
}

/** What busbw means, in one sentence (NCCL-tests' definition). */
export const BUSBW_MEANING =
  "algbw = message size / time; busbw = algbw × the op's factor (NCCL-tests: 2(n−1)/n for all-reduce, " +
  "(n−1)/n for all-gather, reduce-scatter and all-to-all, 1 for broadcast): the rate each rank's busiest " +
  "link moved data at, comparable with a link's speed whatever the rank count.";

/** What the busbw card's ideal is, in one sentence (docs/model.md, "The ideal bus bandwidth"). */
export const IDEAL_MEANING =
  "Each job's ideal is the busbw its algorithm reaches on a non-blocking fabric with no latency, its busiest resource never idle: " +
  "a NIC at its payload rate (line rate × MTU / (MTU + headers)), shared by the channels that leave a server through it, or NVLink. " +
  "Channels that leave a server through different NICs add up, so a 4-channel ring's ideal is 4 NICs' rate; the card says what bounds it.";

/** A tree job's channels are each a double binary tree: its steps are numbered 2c + t (tree t of channel c). */
export const isTreeJob = (job: Pick<Job, "algorithm">): boolean => job.algorithm === "tree";

/** How a job's parallel units are named: "4 channels" or, for a tree, "8 trees (4 channels of 2)". */
export function channelsText(job: Pick<Job, "algorithm" | "channels">): string {
  const c = job.channels;
  if (isTreeJob(job)) return `${formatCount(2 * c)} trees (${formatCount(c)} channel${c === 1 ? "" : "s"} of a double binary tree each)`;
  return `${formatCount(c)} channel${c === 1 ? "" : "s"}`;
}

/** A timeline selector's option: a channel, or a tree "2c + t" with its channel and tree. */
export function channelOptionText(job: Pick<Job, "algorithm">, c: number): string {
  return isTreeJob(job) ? `tree ${c} (channel ${Math.floor(c / 2)}, tree ${c % 2})` : `channel ${c}`;
}

/** Iterations that ran at the same time (ranks start their next one on their own): the first
 * overlap and the sum of the completed iterations' times against the JCT. Null when none overlap. */
export function iterationOverlap(job: Job): { later: number; startUs: number; earlier: number; endUs: number; sumUs: number } | null {
  const its = job.iterations.filter((i) => i.start_us != null);
  for (let k = 1; k < its.length; k++) {
    const prev = its[k - 1];
    const cur = its[k];
    const prevEnd = prev.end_us;
    if (prevEnd != null && cur.start_us! < prevEnd) {
      const sumUs = job.iterations.reduce((a, i) => a + (i.time_us ?? 0), 0);
      return { later: cur.index, startUs: cur.start_us!, earlier: prev.index, endUs: prevEnd, sumUs };
    }
  }
  return null;
}

/** What a run's collective jobs hold, summed over its jobs: the run's top cards say it. */
export interface CollectiveCounts {
  jobs: number;
  finished: number;
  /** (iteration, channel, step) spans listed in the result; `stepsTruncated`: some job listed only its first. */
  steps: number;
  stepsDone: number;
  stepsTruncated: boolean;
  transfers: number;
  transfersDone: number;
  /** Transfers over the fabric and over NVLink, from the listed steps. */
  network: number;
  nvlink: number;
}

export function collectiveCounts(jobs: Job[]): CollectiveCounts {
  const c: CollectiveCounts = { jobs: jobs.length, finished: 0, steps: 0, stepsDone: 0, stepsTruncated: false, transfers: 0, transfersDone: 0, network: 0, nvlink: 0 };
  for (const j of jobs) {
    // a training job (kind "training") may list no steps: its iteration is on its own timeline
    const steps = j.steps ?? [];
    if (j.completed) c.finished += 1;
    c.steps += steps.length;
    c.stepsDone += steps.filter((s) => s.end_us != null).length;
    c.stepsTruncated ||= !!j.steps_truncated;
    c.transfers += j.flows ?? 0;
    c.transfersDone += j.flows_completed ?? 0;
    for (const s of steps) {
      c.network += s.network_flows;
      c.nvlink += s.nvlink_flows;
    }
  }
  return c;
}

/** Steps whose every transfer stayed inside a server (NVLink) carry no network flow. */
export const viaOf = (s: JobStep): "network" | "nvlink" => (s.network_flows > 0 ? "network" : "nvlink");

/** A step's duration: first transfer's start to last completion (null when it did not finish). */
export const stepTimeUs = (s: JobStep): number | null => (s.start_us != null && s.end_us != null ? s.end_us - s.start_us : null);

/** The job's slowest step among its steps (the one slowest_step names), or undefined. */
export function slowestStepOf(job: Job): JobStep | undefined {
  const s = job.slowest_step;
  if (!s) return undefined;
  return job.steps.find((x) => x.iteration === s.iteration && x.channel === s.channel && x.step === s.step);
}

/** The channels the steps use, in order. */
export const channelsOf = (job: Job): number[] => [...new Set(job.steps.map((s) => s.channel))].sort((a, b) => a - b);

const us = (v: number | null | undefined) => (v == null ? "—" : formatDurationUs(v));
const gbps = (v: number | null | undefined) => (v == null ? "—" : formatGbps(v));

/** The ideal busbw (docs/model.md, "The ideal bus bandwidth"); results before it: the NIC payload rate. */
export const idealBusbw = (job: Job): number => job.ideal_busbw_gbps ?? job.nic_payload_gbps;

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** Why the ideal is what it is, in words, from the op, algorithm, channels and rates. */
export function idealText(job: Job): string {
  if (job.ideal_busbw_gbps == null) return "NIC payload rate (line rate × MTU / (MTU + headers))";
  const C = job.channels;
  const k = job.channels_per_nic;
  const nic = `NIC payload rate ${formatGbps(job.nic_payload_gbps)}`;
  const nvlink = `NVLink ${formatGbps(job.nvlink_gbps)} per transfer`;
  const perChannel = job.ideal_limit === "nvlink" ? nvlink : k > 1 ? `${nic} shared by ${k} channels` : nic;
  const oneNic = job.ranks_per_server === 1 || job.servers <= 1;
  const exits = job.servers <= 1 ? "all hops inside one server"
    : oneNic ? (C > 1 ? "every channel through each rank's one NIC" : "one NIC per rank")
    : k === 1 ? (C > 1 ? "each channel leaves a server through its own NIC" : "the ring leaves a server through one NIC")
    : `${job.ranks_per_server} NICs per server for ${plural(C, "channel")}`;
  switch (job.algorithm) {
    case "ring":
      return `${plural(C, "channel")} × the slowest hop (${perChannel}; ${exits})`;
    case "tree":
      return job.op === "all_reduce"
        ? `double binary tree: a server's head NIC sends 2 × S/${C} per channel, so (n−1)/n × ${plural(C, "channel")} × ${perChannel}`
        : `a tree node sends each chunk to two children: ${plural(C, "channel")} × ${perChannel} / 2`;
    case "halving_doubling":
      return `every channel through the rank's NIC (${nic}); partners inside a server over ${nvlink}`;
    case "direct":
      return `(n−${job.ranks_per_server})/n of each rank's bytes leave through its NIC (${nic}) on a non-blocking fabric${job.ranks_per_server > 1 ? "; the rest goes over NVLink" : ""}`;
    case "hierarchical":
      return `NVLink phases inside the servers plus a ring across servers per rail (${nic}), one after the other`;
    default:
      return nic;
  }
}

/** The job's cards: JCT, busbw against its ideal, algbw, iterations, bytes, slowest step. */
export function jobCards(job: Job, anchor: string): Card[] {
  const whole = "whole job, every iteration";
  const its = job.iterations;
  const times = its.map((i) => i.time_us).filter((t): t is number => t != null);
  const slow = job.slowest_step;
  const ideal = idealBusbw(job);
  const ratio = job.busbw_gbps != null && ideal > 0 ? job.busbw_gbps / ideal : null;
  const total = job.network_bytes + job.nvlink_bytes;
  return [
    {
      label: "JCT", value: us(job.jct_us), window: "first send to last completion",
      note: job.completed ? `${formatCount(job.flows_completed)} of ${formatCount(job.flows)} transfers completed`
        : `not finished: ${formatCount(job.flows_completed)} of ${formatCount(job.flows)} transfers completed by the end of the run`,
      href: `#${anchor}`, linkText: "iteration timeline",
    },
    {
      label: "Bus bandwidth", value: gbps(job.busbw_gbps), window: "mean over iterations",
      where: `${ratio != null ? `${formatPercent(ratio)} of ` : ""}ideal ${formatGbps(ideal)}`,
      note: `ideal = ${idealText(job)} · busbw = algbw × ${busFactorText(job)}`,
      href: `#${anchor}`, linkText: "iteration timeline",
    },
    {
      label: "Algorithm bandwidth", value: gbps(job.algbw_gbps), window: "mean over iterations",
      note: `${formatBytes(job.message_bytes)} / iteration time`, href: `#${anchor}`, linkText: "iteration timeline",
    },
    {
      label: "Iterations", value: `${its.filter((i) => i.time_us != null).length} / ${its.length}`, window: "completed / run",
      note: times.length ? `${formatDurationUs(Math.min(...times))} – ${formatDurationUs(Math.max(...times))} each` : "none completed",
      href: `#${anchor}`, linkText: "iteration timeline",
    },
    {
      label: "Network vs NVLink", value: `${formatBytes(job.network_bytes)} · ${formatBytes(job.nvlink_bytes)}`, window: whole,
      note: total > 0 ? `${formatPercent(job.network_bytes / total)} of the bytes crossed the fabric` : "no bytes moved",
      href: `#${anchor}`, linkText: "iteration timeline",
    },
    {
      label: "Slowest step", value: slow ? formatDurationUs(slow.time_us) : "—", window: "first start to last completion of the step",
      where: slow ? `${slow.src}->${slow.dst} via ${slow.via === "nvlink" ? "NVLink" : "the network"}` : undefined,
      note: slow ? `step ${slow.step} of channel ${slow.channel}, iteration ${slow.iteration}: its slowest transfer` : "no step completed",
      href: `#${anchor}`, linkText: "highlighted on the timeline",
    },
  ];
}

/** One bar of the timeline: a step of a channel, from its first start to its last completion. */
export interface StepBar {
  key: string;
  step: number;
  iteration: number;
  channel: number;
  startUs: number;
  endUs: number;
  via: "network" | "nvlink";
  slowest: boolean;
  title: string;
}

/** The bars of one channel's steps (those that started; an unfinished one runs to `endUs`). */
export function stepBars(job: Job, channel: number, endUs: number): StepBar[] {
  const slow = job.slowest_step;
  return job.steps.filter((s) => s.channel === channel && s.start_us != null).map((s) => {
    const isSlowest = !!slow && slow.iteration === s.iteration && slow.channel === s.channel && slow.step === s.step;
    const t = stepTimeUs(s);
    const worst = s.slowest ? `; slowest transfer ${s.slowest.src}->${s.slowest.dst} ${formatDurationUs(s.slowest.time_us)} via ${s.slowest.via}` : "";
    return {
      key: `${s.iteration}-${s.step}`, step: s.step, iteration: s.iteration, channel: s.channel,
      startUs: s.start_us as number, endUs: s.end_us ?? endUs, via: viaOf(s), slowest: isSlowest,
      title: `iteration ${s.iteration}, channel ${s.channel}, step ${s.step}: ${t == null ? "not finished" : formatDurationUs(t)}, ${formatBytes(s.bytes)} (${s.network_flows} network, ${s.nvlink_flows} NVLink transfers)${worst}${isSlowest ? " — the job's slowest step" : ""}`,
    };
  });
}
