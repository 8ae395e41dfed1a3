import { catchInterrupts } from '../load/interrupt.js';

/**
 * Takes the stop signals for a run whose report draws plots (load, capacity, the gate under load): the plot renderer
 * loads first, as the report writers would later. Run from the sources, Ctrl-C to the process group stops tsx's esbuild
 * service too, and an interrupted run could no longer load the renderer to draw what ran.
 *
 * @example
 * await catchInterruptsDrawing(); // a stop signal from here stops the run, and its report still draws what ran
 */
export async function catchInterruptsDrawing(): Promise<void> {
  await import('../report/chart.js');
  catchInterrupts();
}
