import { format } from "d3-format";

const small = format(".4~g");
const large = format(".3~s");
const fmt = (v: number) => (Math.abs(v) >= 1e4 ? large(v) : small(v));

/** Colour bar with the scale's domain at its ends (and middle for diverging scales). */
export function ColorLegend({ color, label, tickFormat = fmt }: {
  color: ((v: number) => string) & { domain: () => number[] };
  label: string;
  tickFormat?: (v: number) => string;
}) {
  const domain = color.domain();
  const lo = domain[0];
  const hi = domain[domain.length - 1];
  const f = tickFormat;
  const stops = Array.from({ length: 11 }, (_, i) => lo + ((hi - lo) * i) / 10);
  const id = `grad-${label.replace(/[^a-z0-9]/gi, "")}-${domain.join("_").replace(/[^0-9_]/g, "")}`;
  return (
    <svg className="legend" width={320} height={42} role="img" aria-label={`Legend: ${label} from ${f(lo)} to ${f(hi)}`} data-domain={`${lo},${hi}`}>
      <defs>
        <linearGradient id={id}>
          {stops.map((v, i) => (
            <stop key={i} offset={`${i * 10}%`} stopColor={color(v)} />
          ))}
        </linearGradient>
      </defs>
      <text x={0} y={10} fontSize={11}>{label}</text>
      <rect x={0} y={14} width={300} height={12} fill={`url(#${id})`} />
      <text x={0} y={38} fontSize={10} className="legend-min">{f(lo)}</text>
      {domain.length === 3 && <text x={150} y={38} fontSize={10} textAnchor="middle">{f(domain[1])}</text>}
      <text x={300} y={38} fontSize={10} textAnchor="end" className="legend-max">{f(hi)}</text>
    </svg>
  );
}
