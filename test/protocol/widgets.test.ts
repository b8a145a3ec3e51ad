// Widgets over comms, checked against the Jupyter widget protocol 2.1 as a frontend's
// widget manager speaks it: comm_open on `jupyter.widget` with the full state and
// version metadata, the widget-view display, update / echo_update / request_state /
// custom comm messages, and the `jupyter.widget.control` comm's request_states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnKernel } from '../support/kernel-client.mjs';
import type { KernelClient } from '../support/kernel-client.mjs';

let kernel: KernelClient;
beforeAll(async () => {
  kernel = await spawnKernel();
});
afterAll(async () => {
  await kernel?.close();
});

type Message = { header: { msg_type: string }; content: Record<string, any>; metadata: Record<string, unknown> };

async function ok(code: string): Promise<Message[]> {
  const { reply, outputs } = await kernel.execute(code);
  expect(reply.content, JSON.stringify(reply.content)).toMatchObject({ status: 'ok' });
  return outputs as Message[];
}

const of = (outputs: Message[], type: string) => outputs.filter((m) => m.header.msg_type === type);
const value = async (expression: string) => {
  const outputs = await ok(expression);
  return of(outputs, 'execute_result')[0]?.content.data['text/plain'];
};

describe('widgets over comms', () => {
  it('a slider: comm_open with its state and layout/style models, shown as a widget view', async () => {
    const outputs = await ok('const n = widgets.slider({ min: 0, max: 10, value: 4, description: "n" });\nn');
    const opens = of(outputs, 'comm_open');
    expect(opens).toHaveLength(3);
    for (const open of opens) {
      expect(open.content.target_name).toBe('jupyter.widget');
      expect(open.metadata).toMatchObject({ version: '2.1.0' });
      expect(open.content.data.buffer_paths).toEqual([]);
    }
    const [layout, style, slider] = opens.map((o) => o.content);
    expect(layout!.data.state).toMatchObject({ _model_name: 'LayoutModel', _model_module: '@jupyter-widgets/base', _model_module_version: '2.0.0', _view_name: 'LayoutView' });
    expect(style!.data.state).toMatchObject({ _model_name: 'SliderStyleModel', _model_module: '@jupyter-widgets/controls', _view_name: 'StyleView' });
    expect(slider!.data.state).toMatchObject({
      _model_name: 'IntSliderModel', _view_name: 'IntSliderView', _model_module: '@jupyter-widgets/controls', _model_module_version: '2.0.0',
      value: 4, min: 0, max: 10, step: 1, description: 'n', readout_format: 'd',
      layout: `IPY_MODEL_${layout!.comm_id}`, style: `IPY_MODEL_${style!.comm_id}`,
    });
    const [result] = of(outputs, 'execute_result');
    expect(result!.content.data).toEqual({
      'application/vnd.jupyter.widget-view+json': { version_major: 2, version_minor: 0, model_id: slider!.comm_id },
      'text/plain': 'IntSlider(value=4, min=0, max=10)',
    });
  });

  it('a frontend update changes .value, is echoed, and runs onChange handlers; code sets the views', async () => {
    const [open] = of(await ok('const s = widgets.slider({ min: 0, max: 1, value: 0.25 });\nconst seen: number[] = [];\ns.onChange((v) => seen.push(v));'), 'comm_open').slice(-1);
    const id = open!.content.comm_id as string;
    expect(open!.content.data.state).toMatchObject({ _model_name: 'FloatSliderModel', value: 0.25, step: 0.01 });
    const msg = kernel.send('shell', 'comm_msg', { comm_id: id, data: { method: 'update', state: { value: 0.75 }, buffer_paths: [] } });
    const echoed = of(await kernel.outputs(msg) as Message[], 'comm_msg');
    expect(echoed.map((m) => m.content)).toEqual([{ comm_id: id, data: { method: 'echo_update', state: { value: 0.75 }, buffer_paths: [] } }]);
    expect(await value('[s.value, seen.join()]')).toBe("[ 0.75, '0.75' ]");
    // From code: clamped to [min, max] as ipywidgets does, sent as an update, handlers run too.
    const set = of(await ok('s.value = 3;'), 'comm_msg');
    expect(set.map((m) => m.content)).toEqual([{ comm_id: id, data: { method: 'update', state: { value: 1 }, buffer_paths: [] } }]);
    expect(await value('seen.join()')).toBe("'0.75,1'");
    // request_state: the full state comes back as an update.
    const ask = kernel.send('shell', 'comm_msg', { comm_id: id, data: { method: 'request_state' } });
    const [full] = of(await kernel.outputs(ask) as Message[], 'comm_msg');
    expect(full!.content.data).toMatchObject({ method: 'update', state: { _model_name: 'FloatSliderModel', value: 1, min: 0, max: 1 }, buffer_paths: [] });
  });

  it('a dropdown of [label, value] pairs: the frontend sends an index, .value is the pair\'s value', async () => {
    const [open] = of(await ok('const d = widgets.dropdown({ options: [["one", 1], ["two", 2], ["three", 3]], value: 2 });\nlet got = 0;\nd.onChange((v) => (got = v));'), 'comm_open').slice(-1);
    expect(open!.content.data.state).toMatchObject({ _model_name: 'DropdownModel', _view_name: 'DropdownView', _options_labels: ['one', 'two', 'three'], index: 1 });
    await kernel.outputs(kernel.send('shell', 'comm_msg', { comm_id: open!.content.comm_id, data: { method: 'update', state: { index: 2 }, buffer_paths: [] } }));
    expect(await value('[d.value, d.index, got]')).toBe('[ 3, 2, 3 ]');
  });

  it('custom messages both ways, and the control comm answers request_states with every model', async () => {
    const outputs = await ok('const c = widgets.slider();\nlet custom: unknown;\nc.onCustom((m) => (custom = m));\nc.send({ hello: 1 });');
    const [open] = of(outputs, 'comm_open').slice(-1);
    const id = open!.content.comm_id as string;
    expect(of(outputs, 'comm_msg').map((m) => m.content)).toEqual([{ comm_id: id, data: { method: 'custom', content: { hello: 1 } } }]);
    await kernel.outputs(kernel.send('shell', 'comm_msg', { comm_id: id, data: { method: 'custom', content: { event: 'click' } } }));
    expect(await value('JSON.stringify(custom)')).toBe('\'{"event":"click"}\'');
    const control = kernel.send('shell', 'comm_open', { comm_id: 'control-1', target_name: 'jupyter.widget.control', data: {} });
    expect(of(await kernel.outputs(control) as Message[], 'comm_close')).toEqual([]);
    const ask = kernel.send('shell', 'comm_msg', { comm_id: 'control-1', data: { method: 'request_states' } });
    const [states] = of(await kernel.outputs(ask) as Message[], 'comm_msg');
    expect(states!.content.data.method).toBe('update_states');
    expect(states!.content.data.states[id]).toMatchObject({ _model_name: 'IntSliderModel', value: 0, min: 0, max: 100 });
    // Three sliders and a dropdown so far, each with a layout and a style model.
    expect(Object.keys(states!.content.data.states)).toHaveLength(12);
  });

  it('a slider drives a cell\'s tensor code: a change from the frontend updates a display in place', async () => {
    const outputs = await ok([
      'const size = widgets.slider({ min: 1, max: 8, value: 2 });',
      'const shown = display.text(String(tpu.ones([size.value]).sum().item()));',
      'size.onChange((n) => shown.update(String(tpu.ones([n]).sum().item())));',
      'size',
    ].join('\n'));
    const [slider] = of(outputs, 'comm_open').slice(-1);
    const [first] = of(outputs, 'display_data');
    expect(first!.content.data['text/plain']).toBe('2');
    const displayId = first!.content.transient.display_id;
    const seen = kernel.iopub.length;
    await kernel.outputs(kernel.send('shell', 'comm_msg', { comm_id: slider!.content.comm_id, data: { method: 'update', state: { value: 5 }, buffer_paths: [] } }));
    // Frontends apply update_display_data by display id, whatever its parent (here the comm_msg).
    const update = await kernel.waitFor(() => (kernel.iopub.slice(seen) as Message[]).find((m) => m.header.msg_type === 'update_display_data'));
    expect(update.content).toMatchObject({ data: { 'text/plain': '5' }, transient: { display_id: displayId } });
  });

  it('what a handler outputs has the frontend\'s comm_msg as its parent (as in ipykernel), not the last cell', async () => {
    const [open] = of(await ok([
      'const h = widgets.slider({ max: 9 });',
      'h.onChange((v) => {',
      '  console.log("moved to", v);',
      '  display.text(`shown ${v}`);',
      '  if (v === 9) throw new Error("too far");',
      '});',
    ].join('\n')), 'comm_open').slice(-1);
    const move = (value: number) => kernel.send('shell', 'comm_msg', { comm_id: open!.content.comm_id, data: { method: 'update', state: { value }, buffer_paths: [] } });
    const msg = move(3);
    const outputs = await kernel.outputs(msg) as Message[];
    expect(of(outputs, 'stream').map((m) => m.content)).toEqual([{ name: 'stdout', text: 'moved to 3\n' }]);
    expect(of(outputs, 'display_data').map((m) => m.content.data)).toEqual([{ 'text/plain': 'shown 3' }]);
    const elsewhere = (kernel.iopub as (Message & { parent_header: { msg_id: string } })[])
      .filter((m) => m.parent_header.msg_id !== msg && m.header.msg_type === 'stream' && JSON.stringify(m.content).includes('moved to'));
    expect(elsewhere).toEqual([]);
    // A handler's error goes to the stderr of that comm_msg too.
    const failing = move(9);
    const [stderr] = of(await kernel.outputs(failing) as Message[], 'stream').filter((m) => m.content.name === 'stderr');
    expect(stderr!.content.text).toContain('too far');
  });

  it('an Output widget collects what capture() runs, in its outputs state; the cell that shows it shows them', async () => {
    const outputs = await ok([
      'const out = widgets.output();',
      'const k = widgets.slider({ max: 9 });',
      'k.onChange((v) => out.capture(() => {',
      '  out.clear();',
      '  console.log("k =", v);',
      '  console.log("twice", 2 * v);',
      '  display(tpu.tensor([v, 2 * v]));',
      '}));',
      'out',
    ].join('\n'));
    const opens = of(outputs, 'comm_open');
    const output = opens.find((o) => o.content.data.state._model_name === 'OutputModel')!;
    const layout = opens.find((o) => o.content.comm_id === output.content.data.state.layout.replace('IPY_MODEL_', ''));
    expect(layout!.content.data.state._model_name).toBe('LayoutModel');
    expect(output.content.data.state).toMatchObject({
      _model_module: '@jupyter-widgets/output', _model_module_version: '1.0.0', _view_module: '@jupyter-widgets/output',
      _view_module_version: '1.0.0', _view_name: 'OutputView', msg_id: '', outputs: [],
    });
    const outputId = output.content.comm_id as string;
    expect(of(outputs, 'execute_result')[0]!.content.data).toEqual({
      'application/vnd.jupyter.widget-view+json': { version_major: 2, version_minor: 0, model_id: outputId }, 'text/plain': 'Output(0 outputs)',
    });
    const slider = opens.findLast((o) => o.content.data.state._model_name === 'IntSliderModel')!;
    const stateOf = (m: Message) => m.content.comm_id === outputId && m.header.msg_type === 'comm_msg' ? m.content.data.state.outputs : undefined;
    for (const value of [4, 5]) {
      const seen = kernel.iopub.length;
      const msg = kernel.send('shell', 'comm_msg', { comm_id: slider.content.comm_id, data: { method: 'update', state: { value }, buffer_paths: [] } });
      // The tensor's display is a device sync point: its update follows the handler.
      const last = await kernel.waitFor(() => (kernel.iopub.slice(seen) as Message[]).map(stateOf).find((o) => o?.length === 2 && o[1].output_type === 'display_data'));
      expect(last).toEqual([
        { output_type: 'stream', name: 'stdout', text: `k = ${value}\ntwice ${2 * value}\n` },
        { output_type: 'display_data', data: expect.objectContaining({ 'text/plain': expect.stringContaining(`${value}., ${2 * value}.`) }), metadata: {} },
      ]);
      // Nothing captured went out as a stream or display of its own.
      expect(of(await kernel.outputs(msg) as Message[], 'stream')).toEqual([]);
      expect(of(kernel.iopub.slice(seen) as Message[], 'display_data')).toEqual([]);
    }
    // In a cell too: the captured line goes to the widget, what follows to the cell.
    // A display captured and updated: the stored output follows the update.
    const cell = await ok('out.capture(() => { console.log("from a cell"); void display.text("first").update("second"); });\nconsole.log("after");');
    expect(of(cell, 'stream').map((m) => m.content.text)).toEqual(['after\n']);
    expect(of(cell, 'comm_msg').map(stateOf).at(-1)).toEqual([
      { output_type: 'stream', name: 'stdout', text: 'k = 5\ntwice 10\n' },
      expect.objectContaining({ output_type: 'display_data' }),
      { output_type: 'stream', name: 'stdout', text: 'from a cell\n' },
      { output_type: 'display_data', data: { 'text/plain': 'second' }, metadata: {} },
    ]);
  });

  it('names wrong options', async () => {
    const { reply } = await kernel.execute('widgets.slider({ mn: 1 })');
    expect(reply.content).toMatchObject({ status: 'error', evalue: "widgets.slider: unknown option 'mn' (options: min, max, value, step, description, continuousUpdate)" });
    const bad = await kernel.execute('widgets.dropdown({ options: ["a"], value: "b" })');
    expect(bad.reply.content).toMatchObject({ status: 'error', evalue: 'widgets.dropdown: value "b" is not among the options' });
  });
});
