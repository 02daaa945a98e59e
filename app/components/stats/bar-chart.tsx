import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip, type ChartOptions } from "chart.js";
import { Bar } from "react-chartjs-2";

// Only what a stacked bar chart needs, so the rest of chart.js stays out of the bundle. This module is
// imported lazily by StatsChart, in the browser only: chart.js never reaches the server or other pages.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

export interface BarSeries {
  label: string;
  data: number[];
  color: string;
}

export interface BarChartProps {
  labels: string[];
  /** Full dates for the tooltips' titles, in the same order as `labels`. */
  titles: string[];
  series: BarSeries[];
  xLabel: string;
  yLabel: string;
  ariaLabel: string;
  reducedMotion: boolean;
}

export default function BarChart({ labels, titles, series, xLabel, yLabel, ariaLabel, reducedMotion }: BarChartProps) {
  const options: ChartOptions<"bar"> = {
    responsive: true,
    // The box gives the size: the spec's 1000 × 400, and still readable on a phone (stats.css).
    maintainAspectRatio: false,
    animation: reducedMotion ? false : { duration: 400 },
    layout: { padding: 8 },
    plugins: {
      legend: { display: false },
      tooltip: {
        filter: (item) => Number(item.raw) > 0,
        callbacks: { title: (items) => titles[items[0]?.dataIndex ?? 0] ?? "" },
      },
    },
    scales: {
      x: { stacked: true, title: { display: true, text: xLabel }, ticks: { autoSkip: true, maxRotation: 0 } },
      y: { stacked: true, beginAtZero: true, title: { display: true, text: yLabel }, ticks: { precision: 0 } },
    },
  };
  const data = {
    labels,
    datasets: series.map((s) => ({ label: s.label, data: s.data, backgroundColor: s.color, stack: "all", maxBarThickness: 48 })),
  };
  return (
    <div className="stats-chart__canvas">
      <Bar options={options} data={data} role="img" aria-label={ariaLabel} />
    </div>
  );
}
