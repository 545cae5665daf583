// Answers in a lab's text (docs/labs/README.md): a fenced block whose info string is
// `answer <prediction id>` holds what the student should see only once that prediction is saved.
// The viewer hides each block until then and shows it beside the prediction afterwards.

export type LabPart = { kind: "text"; source: string } | { kind: "answer"; predictions: string[]; source: string };

/** A fenced answer block at the start of a line: ```answer <id> [<id> ...] ... ``` (its own lines). */
const ANSWER_BLOCK = /^```answer ((?:[a-z0-9-]+ ?)+)[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;

/** The lab text as text and answer parts, in order. */
export function splitAnswers(body: string): LabPart[] {
  const parts: LabPart[] = [];
  let at = 0;
  for (const m of body.matchAll(ANSWER_BLOCK)) {
    if (m.index! > at) parts.push({ kind: "text", source: body.slice(at, m.index) });
    parts.push({ kind: "answer", predictions: m[1].trim().split(/ +/), source: m[2].trimEnd() });
    at = m.index! + m[0].length;
  }
  if (at < body.length) parts.push({ kind: "text", source: body.slice(at) });
  return parts;
}

/** The answer blocks of one prediction, joined (markdown). */
export function answerBlocks(body: string, prediction: string): string {
  return splitAnswers(body).filter((p) => p.kind === "answer" && p.predictions.includes(prediction)).map((p) => p.source).join("\n\n");
}

/** The markdown with its answer fences removed (the instructor notes show every answer). */
export const withoutAnswerFences = (source: string): string => splitAnswers(source).map((p) => p.source).join("\n\n");
