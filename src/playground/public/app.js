// The playground's page: plays Slack's part for the demo workspace. Everything it shows comes from
// the playground's server (what the app posted through the Web API); everything a person does goes
// back to it and from there to the app, signed, as Slack would send it. mrkdwn arrives rendered
// (each text object has an `html` made on the server with slack-markdown); Block Kit is laid out here.

const $ = (id) => document.getElementById(id);

const ui = {
  me: localStorage.getItem('pg.user') || 'U0ADA',
  /** The open conversation: a channel id, or the app's DM. */
  channel: null,
  /** 'messages' or 'home' while the app's DM is open. */
  tab: 'messages',
  thread: null,
  state: null,
  events: null,
  unread: new Set(),
  /** The open modal: its id, version and the values typed so far (Slack's view.state.values). */
  modal: null,
  /** The Home tab shown: its id and its elements' values, sent with its block actions as Slack does. */
  home: null,
  highlight: null,
  /** The person's own message being edited: which, in the list or the thread, and what is typed so far. */
  editing: null,
  /** The open assistant thread (Slack's AI side panel): its DM channel, its ts, the channel it looks at. */
  assistant: null,
};

// ---------------------------------------------------------------------------------------------
// Talking to the playground's server

async function get(path, params = {}) {
  const res = await fetch(`${path}?${new URLSearchParams({ user: ui.me, ...params })}`);
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

async function post(path, body) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: ui.me, ...body }),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(answer.detail || answer.error || `${path}: ${res.status}`);
  return answer;
}

function toast(text, error = false) {
  const el = document.createElement('div');
  el.className = `toast${error ? ' error' : ''}`;
  el.textContent = text;
  $('toasts').append(el);
  setTimeout(() => el.remove(), 5000);
}

/** Runs a person's action; a failure is shown, never swallowed. */
function act(promise) {
  return promise.catch((error) => toast(error.message, true));
}

// ---------------------------------------------------------------------------------------------
// Small DOM helpers

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'html') el.innerHTML = value;
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A text object as HTML (mrkdwn and plain_text arrive with `html`). */
function textHtml(text) {
  if (!text) return '';
  if (typeof text === 'string') return escapeHtml(text);
  return text.html ?? escapeHtml(text.text ?? '');
}

function escapeHtml(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const plain = (text) => (typeof text === 'string' ? text : (text?.text ?? ''));
const initials = (name) =>
  name
    .split(' ')
    .map((p) => p[0])
    .join('')
    .slice(0, 2)
    .toUpperCase();
const time = (ts) =>
  new Date(Number(ts) * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

// ---------------------------------------------------------------------------------------------
// Emoji: drawn where this machine has a font for them, else shown as their shortcode

/** An emoji with its shortcode beside it, as the server renders them in mrkdwn (`.s-emoji`). */
function emojiSpan(character, name) {
  return h('span', { class: 's-emoji', 'data-code': `:${name}:`, title: `:${name}:` }, character);
}

/**
 * Whether the browser can draw `character`: drawn on a canvas, it must differ from a character no
 * font has (U+10FFFD, private use), which a machine draws as its empty box (or not at all). Without
 * an emoji font (a fresh server's Chromium) every emoji is that box: the page then shows the
 * shortcode. One canvas, one answer per character.
 */
const drawable = new Map();
let glyphCanvas;
function canDraw(character) {
  if (drawable.has(character)) return drawable.get(character);
  glyphCanvas ??= document.createElement('canvas');
  glyphCanvas.width = 40;
  glyphCanvas.height = 40;
  const ctx = glyphCanvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return true;
  const pixels = (text) => {
    ctx.clearRect(0, 0, 40, 40);
    ctx.font = '28px sans-serif';
    ctx.textBaseline = 'top';
    ctx.fillStyle = '#000';
    ctx.fillText(text, 4, 4);
    return ctx.getImageData(0, 0, 40, 40).data;
  };
  const missing = pixels('\u{10FFFD}');
  const drawn = pixels(character);
  let same = true;
  for (let i = 0; i < drawn.length && same; i++) same = drawn[i] === missing[i];
  drawable.set(character, !same);
  return !same;
}

/** Every emoji the page shows (now or later) that this machine cannot draw becomes its shortcode. */
function emojiFallback(root) {
  for (const span of root.querySelectorAll('.s-emoji[data-code]:not([data-checked])')) {
    span.dataset.checked = '';
    if (canDraw(span.textContent)) continue;
    span.textContent = span.dataset.code;
    span.classList.add('as-code');
  }
}
new MutationObserver((records) => {
  for (const r of records)
    for (const node of r.addedNodes) if (node instanceof Element) emojiFallback(node.parentElement ?? node);
}).observe(document.body, { childList: true, subtree: true });

// ---------------------------------------------------------------------------------------------
// Block Kit

/**
 * Renders blocks for a surface. `where` says where an element's action goes:
 * { kind: 'message', channel, ts } or { kind: 'view', viewId }.
 */
function renderBlocks(blocks, where) {
  return (blocks ?? []).map((block) =>
    h('div', { class: 'block', 'data-block-id': block.block_id }, renderBlock(block, where)),
  );
}

function renderBlock(block, where) {
  switch (block.type) {
    case 'section': {
      const main = h('div', { class: 'section-main' });
      if (block.text) main.append(h('div', { class: 'mrkdwn', html: textHtml(block.text) }));
      if (block.fields?.length)
        main.append(
          h(
            'div',
            { class: 'fields' },
            block.fields.map((f) => h('div', { class: 'mrkdwn', html: textHtml(f) })),
          ),
        );
      return h(
        'div',
        { class: 'section' },
        main,
        block.accessory ? renderElement(block.accessory, block, where) : null,
      );
    }
    case 'header':
      return h('div', { class: 'header-block', html: textHtml(block.text) });
    case 'divider':
      return h('hr', { class: 'divider' });
    case 'context':
      return h(
        'div',
        { class: 'context' },
        (block.elements ?? []).map((e) =>
          e.type === 'image'
            ? h('img', { src: imageUrl(e), alt: e.alt_text })
            : h('span', { class: 'mrkdwn', html: textHtml(e) }),
        ),
      );
    case 'actions':
      return h(
        'div',
        { class: 'actions' },
        (block.elements ?? []).map((e) => renderElement(e, block, where)),
      );
    case 'image':
      return h(
        'div',
        { class: 'image-block' },
        block.title ? h('div', { html: textHtml(block.title) }) : null,
        h('img', { src: imageUrl(block), alt: block.alt_text }),
      );
    case 'input':
      return renderInput(block, where);
    case 'rich_text':
      return h('div', { class: 'mrkdwn' }, richText(block.elements ?? []));
    default:
      return h('pre', { class: 'unknown-block' }, JSON.stringify(block, null, 2));
  }
}

/** An image's address: its URL, or a file uploaded to Slack (`slack_file`), served by the playground. */
function imageUrl(image) {
  if (image.image_url) return image.image_url;
  if (image.slack_file?.url) return image.slack_file.url;
  return image.slack_file?.id ? `/files/${encodeURIComponent(image.slack_file.id)}` : undefined;
}

/** rich_text: sections, lists, quotes and preformatted text with bold/italic/strike/code styles. */
function richText(elements) {
  const inline = (e) => {
    let node;
    if (e.type === 'text') node = document.createTextNode(e.text);
    else if (e.type === 'link') node = h('a', { href: e.url, target: '_blank' }, e.text ?? e.url);
    else if (e.type === 'user') node = h('span', { class: 's-mention' }, `@${personName(e.user_id)}`);
    else if (e.type === 'channel') node = h('span', { class: 's-mention' }, `#${e.channel_id}`);
    else if (e.type === 'emoji')
      node = e.unicode
        ? emojiSpan(String.fromCodePoint(...e.unicode.split('-').map((c) => parseInt(c, 16))), e.name)
        : document.createTextNode(`:${e.name}:`);
    else node = document.createTextNode(JSON.stringify(e));
    const s = e.style ?? {};
    if (s.code) node = h('code', {}, node);
    if (s.bold) node = h('strong', {}, node);
    if (s.italic) node = h('em', {}, node);
    if (s.strike) node = h('del', {}, node);
    return node;
  };
  return elements.map((el) => {
    const kids = (el.elements ?? []).map((k) =>
      k.type === 'rich_text_section' ? h('span', {}, (k.elements ?? []).map(inline)) : inline(k),
    );
    if (el.type === 'rich_text_list')
      return h(
        el.style === 'ordered' ? 'ol' : 'ul',
        {},
        kids.map((k) => h('li', {}, k)),
      );
    if (el.type === 'rich_text_quote') return h('blockquote', {}, kids);
    if (el.type === 'rich_text_preformatted') return h('pre', {}, kids);
    return h('div', {}, kids);
  });
}

function personName(id) {
  return ui.state?.people.find((p) => p.id === id)?.realName ?? id;
}

/** Asks as Slack asks before a button with `confirm` acts. */
function confirmDialog(confirm) {
  return new Promise((resolve) => {
    const done = (yes) => {
      overlay.remove();
      resolve(yes);
    };
    const overlay = h(
      'div',
      { class: 'overlay confirm', role: 'dialog', 'aria-label': plain(confirm.title) || 'Are you sure?' },
      h(
        'div',
        { class: 'modal' },
        h('div', { class: 'modal-head' }, h('h2', {}, plain(confirm.title) || 'Are you sure?')),
        h('div', { class: 'modal-body mrkdwn', html: textHtml(confirm.text) }),
        h(
          'div',
          { class: 'modal-foot' },
          h(
            'button',
            { class: 'btn', type: 'button', onclick: () => done(false) },
            plain(confirm.deny) || 'Cancel',
          ),
          h(
            'button',
            {
              class: `btn ${confirm.style === 'danger' ? 'danger' : 'primary'}`,
              type: 'button',
              onclick: () => done(true),
            },
            plain(confirm.confirm) || 'Yes',
          ),
        ),
      ),
    );
    document.body.append(overlay);
  });
}

/** An element was used: tell the app (a block_actions payload), after a confirmation if it asks for one. */
async function elementAction(element, block, where, extra) {
  if (element.confirm && !(await confirmDialog(element.confirm))) return;
  const action = { type: element.type, action_id: element.action_id, block_id: block.block_id, ...extra };
  if (where.kind === 'message')
    await act(post('/pg/action', { channel: where.channel, ts: where.ts, action }));
  else
    await act(
      post('/pg/action', {
        viewId: where.viewId,
        action,
        values: formOf(where.viewId)?.values ?? {},
      }),
    );
}

function optionsOf(element) {
  if (element.option_groups) return element.option_groups.flatMap((g) => g.options);
  return element.options ?? [];
}

/** A select's <option>s: static options (grouped or not), people or channels. */
function selectOptions(element, selected) {
  const placeholder = h('option', { value: '' }, plain(element.placeholder) || 'Select…');
  const opt = (value, label) => h('option', { value, selected: value === selected }, label);
  if (element.type.startsWith('users_select') || element.type.startsWith('multi_users'))
    return [placeholder, ...ui.state.people.map((p) => opt(p.id, p.realName))];
  if (/conversations|channels/.test(element.type))
    return [placeholder, ...ui.state.channels.map((c) => opt(c.id, `#${c.name}`))];
  if (element.option_groups)
    return [
      placeholder,
      ...element.option_groups.map((g) =>
        h(
          'optgroup',
          { label: plain(g.label) },
          g.options.map((o) => opt(o.value, plain(o.text))),
        ),
      ),
    ];
  return [placeholder, ...(element.options ?? []).map((o) => opt(o.value, plain(o.text)))];
}

/** Slack's state value for a select, from the picked value. */
function selectValue(element, value) {
  const type = element.type;
  if (type === 'users_select') return { type, selected_user: value || null };
  if (type === 'conversations_select') return { type, selected_conversation: value || null };
  if (type === 'channels_select') return { type, selected_channel: value || null };
  const option = optionsOf(element).find((o) => o.value === value);
  return { type, selected_option: option ? stripHtml(option) : null };
}

/** Options go back to the app as it sent them (without the page's rendering). */
function stripHtml(node) {
  if (Array.isArray(node)) return node.map(stripHtml);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) if (k !== 'html') out[k] = stripHtml(v);
  return out;
}

/** The initial state value of an input element (as Slack fills view.state.values). */
function initialValue(element) {
  const type = element.type;
  switch (type) {
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input':
      return { type, value: element.initial_value ?? null };
    case 'static_select':
    case 'external_select':
    case 'radio_buttons':
      return { type, selected_option: element.initial_option ? stripHtml(element.initial_option) : null };
    case 'multi_static_select':
    case 'multi_external_select':
    case 'checkboxes':
      return { type, selected_options: stripHtml(element.initial_options ?? []) };
    case 'users_select':
      return { type, selected_user: element.initial_user ?? null };
    case 'multi_users_select':
      return { type, selected_users: element.initial_users ?? [] };
    case 'multi_conversations_select':
      return { type, selected_conversations: element.initial_conversations ?? [] };
    case 'multi_channels_select':
      return { type, selected_channels: element.initial_channels ?? [] };
    case 'conversations_select':
      return { type, selected_conversation: element.initial_conversation ?? null };
    case 'channels_select':
      return { type, selected_channel: element.initial_channel ?? null };
    case 'datepicker':
      return { type, selected_date: element.initial_date ?? null };
    case 'timepicker':
      return { type, selected_time: element.initial_time ?? null };
    case 'datetimepicker':
      return { type, selected_date_time: element.initial_date_time ?? null };
    default:
      return { type };
  }
}

/** The form state of a view the page shows: the open modal's, or the Home tab's. */
function formOf(viewId) {
  if (ui.modal?.id === viewId) return ui.modal;
  if (ui.home?.id === viewId) return ui.home;
  return null;
}

/** The value slot for an element in a view the page shows (created from its initial value). */
function slot(block, element, where) {
  const form = formOf(where.viewId);
  if (!form) return null;
  form.values[block.block_id] ??= {};
  const byBlock = form.values[block.block_id];
  byBlock[element.action_id] ??= initialValue(element);
  return byBlock[element.action_id];
}

/** Elements without a value of their own: Slack keeps no state for them. */
const STATELESS = new Set(['button', 'overflow', 'image']);

/**
 * One interactive element. In a message a change acts at once; in a view (a modal, the Home tab)
 * it changes the view's state — every element's, as Slack sends it with each action — and acts too
 * when it sits in an actions block, an accessory, or a dispatching input.
 */
function renderElement(element, block, where, inInput = false) {
  const inView = where.kind === 'view';
  const dispatch = !inInput || block.dispatch_action;
  const state = inView && !STATELESS.has(element.type) ? slot(block, element, where) : null;
  const change = (value) => {
    if (state) Object.assign(state, value);
    if (dispatch) {
      const { type: _t, ...rest } = value;
      elementAction(element, block, where, rest);
    }
  };
  switch (element.type) {
    case 'button':
      return h(
        'button',
        {
          class: `btn ${element.style ?? ''}`,
          type: 'button',
          'data-action-id': element.action_id,
          onclick: () => {
            if (element.url) window.open(element.url, '_blank');
            elementAction(element, block, where, { value: element.value, text: stripHtml(element.text) });
          },
        },
        plain(element.text),
      );
    case 'overflow':
      return overflowMenu(element, block, where);
    case 'image':
      return h('img', { class: 'accessory-image', src: element.image_url, alt: element.alt_text });
    case 'static_select':
    case 'users_select':
    case 'conversations_select':
    case 'channels_select': {
      const current = state
        ? (state.selected_option?.value ??
          state.selected_user ??
          state.selected_conversation ??
          state.selected_channel ??
          '')
        : (element.initial_option?.value ??
          element.initial_user ??
          element.initial_conversation ??
          element.initial_channel ??
          '');
      return h(
        'select',
        {
          'data-action-id': element.action_id,
          'aria-label': plain(block.label) || plain(element.placeholder),
          onchange: (e) => change(selectValue(element, e.target.value)),
        },
        selectOptions(element, current),
      );
    }
    case 'external_select':
      return externalSelect(element, block, where, state, change);
    case 'multi_static_select':
    case 'multi_external_select':
    case 'multi_users_select':
    case 'multi_conversations_select':
    case 'multi_channels_select':
      return chipsSelect(element, block, where, state, change);
    case 'checkboxes':
    case 'radio_buttons': {
      const radio = element.type === 'radio_buttons';
      const name = `${block.block_id}-${element.action_id}`;
      const chosen = () =>
        radio ? [state?.selected_option?.value] : (state?.selected_options ?? []).map((o) => o.value);
      const initial = radio
        ? [element.initial_option?.value]
        : (element.initial_options ?? []).map((o) => o.value);
      const on = state ? chosen() : initial;
      return h(
        'div',
        { class: 'choices', 'data-action-id': element.action_id },
        element.options.map((o) =>
          h(
            'label',
            {},
            h('input', {
              type: radio ? 'radio' : 'checkbox',
              name,
              value: o.value,
              checked: on.includes(o.value),
              onchange: (e) => {
                const boxes = [...e.target.closest('.choices').querySelectorAll('input')]
                  .filter((i) => i.checked)
                  .map((i) => i.value);
                const picked = element.options.filter((x) => boxes.includes(x.value)).map(stripHtml);
                change(
                  radio
                    ? { type: element.type, selected_option: picked[0] ?? null }
                    : { type: element.type, selected_options: picked },
                );
              },
            }),
            ' ',
            h('span', { html: textHtml(o.text) }),
            o.description ? h('span', { class: 'desc', html: textHtml(o.description) }) : null,
          ),
        ),
      );
    }
    case 'datepicker':
    case 'timepicker':
    case 'datetimepicker': {
      const kind = { datepicker: 'date', timepicker: 'time', datetimepicker: 'datetime-local' }[element.type];
      const key = {
        datepicker: 'selected_date',
        timepicker: 'selected_time',
        datetimepicker: 'selected_date_time',
      }[element.type];
      let initial = state
        ? state[key]
        : (element.initial_date ?? element.initial_time ?? element.initial_date_time);
      if (kind === 'datetime-local' && typeof initial === 'number')
        initial = new Date(initial * 1000).toISOString().slice(0, 16);
      return h('input', {
        type: kind,
        value: initial ?? '',
        'data-action-id': element.action_id,
        'aria-label': plain(block.label) || element.type,
        onchange: (e) => {
          const raw = e.target.value || null;
          const value = kind === 'datetime-local' && raw ? Math.floor(new Date(raw).getTime() / 1000) : raw;
          change({ type: element.type, [key]: value });
        },
      });
    }
    case 'plain_text_input':
    case 'email_text_input':
    case 'url_text_input':
    case 'number_input': {
      const multiline = element.multiline;
      const type =
        { email_text_input: 'email', url_text_input: 'url', number_input: 'number' }[element.type] ?? 'text';
      const attrs = {
        'data-action-id': element.action_id,
        'aria-label': plain(block.label) || element.action_id,
        placeholder: plain(element.placeholder) || undefined,
        maxlength: element.max_length,
        oninput: (e) => {
          if (state) state.value = e.target.value === '' ? null : e.target.value;
        },
        onchange: (e) => {
          if (block.dispatch_action) change({ type: element.type, value: e.target.value });
        },
      };
      const value = state ? (state.value ?? '') : (element.initial_value ?? '');
      if (multiline) {
        const area = h('textarea', { ...attrs, rows: 4 });
        area.value = value;
        return area;
      }
      return h('input', { ...attrs, type, value });
    }
    default:
      return h('pre', { class: 'unknown-block' }, JSON.stringify(element, null, 2));
  }
}

function overflowMenu(element, block, where) {
  const menu = h('div', { class: 'menu', role: 'menu', hidden: true });
  for (const option of element.options ?? [])
    menu.append(
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            menu.hidden = true;
            elementAction(element, block, where, { selected_option: stripHtml(option) });
          },
        },
        plain(option.text),
      ),
    );
  return h(
    'span',
    { class: 'menu-wrap' },
    h(
      'button',
      {
        class: 'btn',
        type: 'button',
        'aria-label': 'More options',
        onclick: () => (menu.hidden = !menu.hidden),
      },
      '⋯',
    ),
    menu,
  );
}

/** An external select: what is typed asks the app for options (block_suggestion), as Slack does. */
function externalSelect(element, block, where, state, change) {
  const minLength = element.min_query_length ?? 3;
  const current = state?.selected_option ?? element.initial_option;
  const input = h('input', {
    type: 'text',
    'data-action-id': element.action_id,
    'aria-label': plain(block.label) || plain(element.placeholder) || 'Search',
    placeholder: plain(element.placeholder) || 'Type to search…',
    autocomplete: 'off',
    value: current ? plain(current.text) : '',
  });
  const list = h('ul', { class: 'ext-options', role: 'listbox', hidden: true });
  let timer;
  let asked = 0;
  const pick = (option) => {
    input.value = plain(option.text);
    list.hidden = true;
    change({ type: element.type, selected_option: stripHtml(option) });
  };
  const ask = async () => {
    const query = input.value;
    if (query.length < minLength) {
      list.hidden = true;
      return;
    }
    const mine = ++asked;
    const body = { actionId: element.action_id, blockId: block.block_id, value: query };
    const answer = await post(
      '/pg/options',
      where.kind === 'view'
        ? { ...body, viewId: where.viewId, values: formOf(where.viewId)?.values ?? {} }
        : { ...body, channel: where.channel, ts: where.ts },
    ).catch((error) => {
      toast(error.message, true);
      return { options: [], option_groups: [] };
    });
    if (mine !== asked) return; // a later keystroke asked again
    list.replaceChildren();
    const add = (o) =>
      list.append(
        h(
          'li',
          {
            role: 'option',
            onmousedown: (e) => {
              e.preventDefault();
              pick(o);
            },
          },
          plain(o.text),
        ),
      );
    answer.options.forEach(add);
    for (const group of answer.option_groups) {
      list.append(h('li', { class: 'group' }, plain(group.label)));
      group.options.forEach(add);
    }
    if (!list.children.length) list.append(h('li', { class: 'group' }, 'No matches'));
    list.hidden = false;
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    if (state) state.selected_option = null;
    timer = setTimeout(ask, 250);
  });
  input.addEventListener('focus', () => {
    if (minLength === 0) ask();
  });
  input.addEventListener('blur', () => setTimeout(() => (list.hidden = true), 150));
  return h('div', { class: 'ext-select' }, input, list);
}

/** What a multi-select holds, as { value, label } (and the option object for option kinds). */
const MULTI_KEY = {
  multi_static_select: 'selected_options',
  multi_external_select: 'selected_options',
  multi_users_select: 'selected_users',
  multi_conversations_select: 'selected_conversations',
  multi_channels_select: 'selected_channels',
};
const MULTI_INITIAL = {
  multi_static_select: 'initial_options',
  multi_external_select: 'initial_options',
  multi_users_select: 'initial_users',
  multi_conversations_select: 'initial_conversations',
  multi_channels_select: 'initial_channels',
};

/** A choice of people, channels or options for a multi-select: { value, label, option? }. */
function multiChoice(type, item) {
  if (type === 'multi_static_select' || type === 'multi_external_select')
    return { value: item.value, label: plain(item.text), option: stripHtml(item) };
  if (type === 'multi_users_select') return { value: item, label: personName(item) };
  const channel = ui.state.channels.find((c) => c.id === item);
  return { value: item, label: `#${channel?.name ?? item}` };
}

/**
 * A multi-select as Slack shows it: the picked items as chips (each with its ✕), and a type-ahead
 * that offers the rest — the element's options, the workspace's people or channels, or, for an
 * external one, what the app answers (block_suggestion), as for a single external select.
 */
function chipsSelect(element, block, where, state, change) {
  const type = element.type;
  const key = MULTI_KEY[type];
  let picked = (state?.[key] ?? element[MULTI_INITIAL[type]] ?? []).map((x) => multiChoice(type, x));
  const label = plain(block.label) || plain(element.placeholder) || 'Search';
  const chips = h('span', { class: 'chips' });
  const input = h('input', {
    type: 'text',
    'data-action-id': element.action_id,
    'aria-label': label,
    placeholder: plain(element.placeholder) || 'Type to search…',
    autocomplete: 'off',
  });
  const list = h('ul', { class: 'ext-options', role: 'listbox', hidden: true });
  const emit = () =>
    change({ type, [key]: picked.map((p) => (p.option !== undefined ? p.option : p.value)) });
  const drawChips = () =>
    chips.replaceChildren(
      ...picked.map((p) =>
        h(
          'span',
          { class: 'chip', 'data-value': p.value },
          p.label,
          h(
            'button',
            {
              type: 'button',
              class: 'chip-remove',
              'aria-label': `Remove ${p.label}`,
              onclick: () => {
                picked = picked.filter((x) => x.value !== p.value);
                drawChips();
                emit();
              },
            },
            '✕',
          ),
        ),
      ),
    );
  drawChips();
  const local = () => {
    if (type === 'multi_users_select') return ui.state.people.map((p) => p.id);
    if (type === 'multi_conversations_select' || type === 'multi_channels_select')
      return ui.state.channels.map((c) => c.id);
    return optionsOf(element);
  };
  let asked = 0;
  let timer;
  const show = (choices, groups = []) => {
    list.replaceChildren();
    const taken = new Set(picked.map((p) => p.value));
    const add = (c) =>
      taken.has(c.value) ||
      list.append(
        h(
          'li',
          {
            role: 'option',
            onmousedown: (e) => {
              e.preventDefault();
              const max = element.max_selected_items;
              if (max && picked.length >= max) return toast(`At most ${max} can be picked here.`, true);
              picked = [...picked, c];
              input.value = '';
              list.hidden = true;
              drawChips();
              emit();
            },
          },
          c.label,
        ),
      );
    choices.forEach(add);
    for (const g of groups) {
      list.append(h('li', { class: 'group' }, g.label));
      g.choices.forEach(add);
    }
    if (!list.querySelector('[role=option]')) list.append(h('li', { class: 'group' }, 'No matches'));
    list.hidden = false;
  };
  const ask = async () => {
    const query = input.value;
    if (type !== 'multi_external_select') {
      const q = query.toLowerCase();
      return show(
        local()
          .map((x) => multiChoice(type, x))
          .filter((c) => c.label.toLowerCase().includes(q)),
      );
    }
    if (query.length < (element.min_query_length ?? 3)) {
      list.hidden = true;
      return;
    }
    const mine = ++asked;
    const answer = await post('/pg/options', {
      actionId: element.action_id,
      blockId: block.block_id,
      value: query,
      ...(where.kind === 'view'
        ? { viewId: where.viewId, values: formOf(where.viewId)?.values ?? {} }
        : { channel: where.channel, ts: where.ts }),
    }).catch((error) => {
      toast(error.message, true);
      return { options: [], option_groups: [] };
    });
    if (mine !== asked) return; // a later keystroke asked again
    show(
      answer.options.map((o) => multiChoice(type, o)),
      answer.option_groups.map((g) => ({
        label: plain(g.label),
        choices: g.options.map((o) => multiChoice(type, o)),
      })),
    );
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(ask, type === 'multi_external_select' ? 250 : 0);
  });
  input.addEventListener('focus', () => {
    if (type !== 'multi_external_select' || (element.min_query_length ?? 3) === 0) ask();
  });
  input.addEventListener('blur', () => setTimeout(() => (list.hidden = true), 150));
  return h('div', { class: 'ext-select chips-select' }, chips, input, list);
}

function renderInput(block, where) {
  const error = ui.modal?.errors?.[block.block_id];
  return h(
    'div',
    { class: `input-block${error ? ' has-error' : ''}` },
    h(
      'label',
      {},
      plain(block.label),
      block.optional ? h('span', { class: 'optional' }, ' (optional)') : null,
    ),
    renderElement(block.element, block, where, true),
    error ? h('div', { class: 'field-error', role: 'alert' }, error) : null,
    block.hint ? h('div', { class: 'hint', html: textHtml(block.hint) }) : null,
  );
}

// ---------------------------------------------------------------------------------------------
// Messages

function renderMessage(m, inThread) {
  const where = { kind: 'message', channel: m.channel, ts: m.ts };
  const body = h('div', { class: 'msg-body' });
  body.append(
    h(
      'div',
      { class: 'msg-head' },
      h('span', { class: 'author' }, m.author),
      m.bot ? h('span', { class: 'app-tag' }, 'APP') : null,
      h('span', { class: 'time' }, time(m.ts)),
      m.edited ? h('span', { class: 'time' }, '(edited)') : null,
    ),
  );
  if (m.ephemeral)
    body.append(h('div', { class: 'eph-note' }, emojiSpan('👁', 'eye'), ' Only visible to you'));
  if (m.blocks?.length) body.append(...renderBlocks(m.blocks, where));
  else if (ui.editing?.channel === m.channel && ui.editing.ts === m.ts && ui.editing.inThread === inThread)
    body.append(messageEditor(m));
  else body.append(h('div', { class: 'mrkdwn msg-text', html: m.html }));
  for (const a of m.attachments ?? [])
    body.append(
      h(
        'div',
        {
          class: 'attachment',
          style: a.color
            ? `border-left-color:${a.color.startsWith('#') ? a.color : `#${a.color}`}`
            : undefined,
        },
        a.blocks ? renderBlocks(a.blocks, where) : h('div', { class: 'mrkdwn' }, a.text ?? a.fallback ?? ''),
      ),
    );
  for (const f of m.files ?? [])
    body.append(
      h('div', { class: 'file' }, emojiSpan('📄', 'page_facing_up'), ` ${f.title} (${f.size} bytes)`),
    );
  if (m.reactions?.length)
    body.append(
      h(
        'div',
        { class: 'reactions', 'aria-label': 'Reactions' },
        m.reactions.map((r) =>
          h(
            'span',
            {
              class: 'reaction',
              'data-name': r.name,
              title: `${r.by.join(', ')} reacted with :${r.name}:`,
            },
            h('span', { html: r.html }),
            h('span', { class: 'count' }, String(r.count)),
          ),
        ),
      ),
    );
  if (!inThread && m.replyCount)
    body.append(
      h(
        'button',
        { class: 'replies-link', type: 'button', onclick: () => openThread(m.channel, m.ts) },
        `${m.replyCount} ${m.replyCount === 1 ? 'reply' : 'replies'}`,
      ),
    );

  const el = h(
    'div',
    {
      class: `msg${m.ephemeral ? ' ephemeral' : ''}${ui.highlight === m.ts ? ' highlight' : ''}`,
      'data-ts': m.ts,
    },
    h('div', { class: `avatar${m.bot ? ' bot' : ''}` }, m.bot ? 'TP' : initials(m.author)),
    body,
  );
  if (!m.ephemeral) el.append(messageActions(m, inThread));
  return el;
}

/** "More actions": the app's message shortcuts (from its manifest), and replying in a thread. */
function messageActions(m, inThread) {
  const menu = h('div', { class: 'menu', role: 'menu', hidden: true });
  const shortcuts = ui.state.shortcuts.filter((s) => s.type === 'message');
  menu.append(h('h3', {}, ui.state.app.name));
  for (const s of shortcuts)
    menu.append(
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          onclick: () => {
            menu.hidden = true;
            act(post('/pg/shortcut', { callbackId: s.callbackId, channel: m.channel, ts: m.ts }));
          },
        },
        s.name,
        h('span', { class: 'desc' }, s.description),
      ),
    );
  if (m.own) {
    // Only its author edits or deletes a message, as in Slack; the app hears of it as Slack tells it.
    menu.append(
      h('h3', {}, 'Your message'),
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          onclick: () => {
            menu.hidden = true;
            startEditing(m, inThread);
          },
        },
        'Edit message',
      ),
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          onclick: () => {
            menu.hidden = true;
            act(deleteMessage(m));
          },
        },
        'Delete message',
      ),
    );
  }
  const bar = h('div', { class: 'msg-actions' });
  if (!inThread)
    bar.append(
      h(
        'button',
        { type: 'button', title: 'Reply in thread', onclick: () => openThread(m.channel, m.ts) },
        'Reply',
      ),
    );
  bar.append(
    h(
      'span',
      { class: 'menu-wrap' },
      h(
        'button',
        {
          type: 'button',
          'aria-label': 'More actions',
          title: 'More actions',
          onclick: () => {
            menu.hidden = !menu.hidden;
            bar.classList.toggle('open', !menu.hidden);
          },
        },
        '⋮',
      ),
      menu,
    ),
  );
  return bar;
}

/**
 * A message being edited: its text becomes a small editor until Save or Cancel. Kept in `ui` (with
 * what was typed so far), so a refresh of the list while editing — a reaction, a reply — keeps it.
 */
function startEditing(m, inThread) {
  ui.editing = { channel: m.channel, ts: m.ts, inThread, draft: m.typed ?? '' };
  refreshConversation();
}

function stopEditing() {
  ui.editing = null;
  refreshConversation();
}

function refreshConversation() {
  act(showMessages());
  if (ui.thread) act(showThread());
}

/** The editor shown in place of the text of the message being edited. */
function messageEditor(m) {
  const text = h('textarea', { class: 'edit-text', rows: 2, 'aria-label': 'Edit message' });
  text.value = ui.editing.draft;
  text.addEventListener('input', () => {
    if (ui.editing) ui.editing.draft = text.value;
  });
  const save = () => {
    const value = text.value.trim();
    if (!value) return;
    act(post('/pg/edit', { channel: m.channel, ts: m.ts, text: value }).then(stopEditing));
  };
  text.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') stopEditing();
    else if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      save();
    }
  });
  // Focused once shown (a refresh puts a new editor in place: it takes the focus back).
  queueMicrotask(() => text.isConnected && text.focus());
  return h(
    'form',
    {
      class: 'edit-form',
      onsubmit: (e) => {
        e.preventDefault();
        save();
      },
    },
    text,
    h(
      'div',
      { class: 'edit-buttons' },
      h('button', { class: 'btn', type: 'button', onclick: stopEditing }, 'Cancel'),
      h('button', { class: 'btn primary', type: 'submit' }, 'Save'),
    ),
  );
}

async function deleteMessage(m) {
  const yes = await confirmDialog({
    title: { type: 'plain_text', text: 'Delete message' },
    text: {
      type: 'plain_text',
      text: 'Are you sure you want to delete this message? This cannot be undone.',
    },
    confirm: { type: 'plain_text', text: 'Delete' },
    style: 'danger',
  });
  if (yes) await post('/pg/delete', { channel: m.channel, ts: m.ts });
}

/**
 * A list is read, then drawn; reads of one list overlap (a click, then another; an event while the
 * first answer is on its way) and their answers may come in any order. Only the latest read of a
 * list draws: an earlier answer coming last would show another channel's messages under this one's
 * title, or a Home tab older than the one just drawn. Returns whether a read is still the latest.
 */
const reads = {};
function latestRead(list) {
  const n = (reads[list] ?? 0) + 1;
  reads[list] = n;
  return () => reads[list] === n;
}

async function showMessages() {
  if (!ui.channel) return;
  const latest = latestRead('messages');
  const channel = ui.channel;
  const { messages, link } = await get('/pg/channel', { channel });
  if (!latest() || channel !== ui.channel) return;
  if (link) showLink(link);
  const list = $('messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  list.replaceChildren(
    ...(messages.length
      ? messages.map((m) => renderMessage(m, false))
      : [h('div', { class: 'empty' }, 'No messages yet.')]),
  );
  if (atBottom || ui.highlight) list.scrollTop = list.scrollHeight;
}

async function showThread() {
  if (!ui.thread) return;
  const latest = latestRead('thread');
  const { messages } = await get('/pg/thread', ui.thread);
  if (!latest()) return;
  $('thread-messages').replaceChildren(...messages.map((m) => renderMessage(m, true)));
}

function openThread(channel, ts) {
  ui.thread = { channel, ts };
  $('thread').hidden = false;
  $('thread-composer').hidden = !canType(channel);
  act(showThread());
}

// ---------------------------------------------------------------------------------------------
// Modals and the Home tab

async function showModal() {
  const { modal } = await get('/pg/modal');
  const root = $('modal-root');
  if (!modal) {
    ui.modal = null;
    root.replaceChildren();
    return;
  }
  // The view as it is drawn already (an event for another change, or two events for one update):
  // nothing is drawn again, so what the person is typing — a type-ahead's open list included — stays.
  if (ui.modal?.id === modal.id && ui.modal.version === modal.version && root.firstChild) return;
  // Values typed so far stay when the same view is updated (Slack keeps an input's state by block and action id).
  if (ui.modal?.id !== modal.id) ui.modal = { id: modal.id, values: {} };
  ui.modal.errors = modal.errors;
  ui.modal.version = modal.version;
  const view = modal.view;
  const where = { kind: 'view', viewId: modal.id };
  const values = () => ui.modal?.values ?? {};
  const form = h(
    'form',
    {
      class: 'modal',
      role: 'dialog',
      'aria-label': plain(view.title),
      onsubmit: (e) => {
        e.preventDefault();
        act(post('/pg/submit', { viewId: modal.id, values: values() }));
      },
    },
    h(
      'div',
      { class: 'modal-head' },
      h('h2', {}, plain(view.title)),
      modal.depth > 1 ? h('span', { class: 'stack-note' }, `${modal.depth} views deep`) : null,
      h(
        'button',
        {
          class: 'icon-btn',
          type: 'button',
          'aria-label': 'Close',
          onclick: () => act(post('/pg/close', { viewId: modal.id, values: values() })),
        },
        '✕',
      ),
    ),
    h('div', { class: 'modal-body' }, renderBlocks(view.blocks, where)),
    h(
      'div',
      { class: 'modal-foot' },
      h(
        'button',
        {
          class: 'btn',
          type: 'button',
          onclick: () => act(post('/pg/close', { viewId: modal.id, values: values() })),
        },
        plain(view.close) || 'Cancel',
      ),
      view.submit ? h('button', { class: 'btn primary', type: 'submit' }, plain(view.submit)) : null,
    ),
  );
  root.replaceChildren(h('div', { class: 'overlay' }, form));
}

/**
 * The Home tab's form state for a publish: what the person picked stays while the app still shows
 * the same initial value for that element (so the first end of the quiet hours survives the
 * republish the app makes to ask for the second); an element the app now shows otherwise starts
 * from the app's value.
 */
function homeForm(home, previous) {
  const form = { id: home.id, values: {}, initials: {} };
  for (const block of home.view.blocks ?? []) {
    const elements = block.element
      ? [block.element]
      : (block.elements ?? (block.accessory ? [block.accessory] : []));
    for (const element of elements) {
      if (!element.action_id || STATELESS.has(element.type)) continue;
      const key = `${block.block_id}/${element.action_id}`;
      form.initials[key] = JSON.stringify(initialValue(element));
      const kept = previous?.id === home.id && previous.initials[key] === form.initials[key];
      const value = previous?.values[block.block_id]?.[element.action_id];
      if (!kept || !value) continue;
      form.values[block.block_id] ??= {};
      form.values[block.block_id][element.action_id] = value;
    }
  }
  return form;
}

async function showHome() {
  const latest = latestRead('home');
  const { home } = await get('/pg/home');
  if (!latest()) return;
  const el = $('home');
  if (!home) {
    el.replaceChildren(
      h('div', { class: 'empty' }, `${ui.state.app.name} has not published a Home tab for you.`),
    );
    return;
  }
  ui.home = homeForm(home, ui.home);
  el.replaceChildren(...renderBlocks(home.view.blocks, { kind: 'view', viewId: home.id }));
}

// ---------------------------------------------------------------------------------------------
// Navigation

function renderSidebar() {
  const link = (id, label, onclick) =>
    h(
      'li',
      {},
      h(
        'a',
        {
          href: `#${id}`,
          'data-channel': id,
          class: `${ui.channel === id ? 'active' : ''} ${ui.unread.has(id) ? 'unread' : ''}`,
          onclick,
        },
        label,
      ),
    );
  $('channels').replaceChildren(...ui.state.channels.map((c) => link(c.id, `# ${c.name}`)));
  $('apps').replaceChildren(link(ui.state.app.dm, ui.state.app.name));
}

/** Whether the person may type here: the app's DM takes messages only when its manifest's Messages tab is writable. */
function canType(channel) {
  return !(channel === ui.state.app.dm || channel.startsWith('D')) || ui.state.app.dmWritable;
}

async function openChannel(id, tab) {
  ui.channel = id;
  // The address names the open conversation: a sidebar link to the channel shown before a person
  // switch (the address still naming it) would otherwise change nothing, and so do nothing.
  if (location.hash.slice(1).split('/')[0] !== id) history.replaceState(null, '', `#${id}`);
  ui.unread.delete(id);
  const isApp = id === ui.state.app.dm;
  ui.tab = isApp ? (tab ?? ui.tab ?? 'messages') : tab === 'canvas' ? 'canvas' : 'messages';
  const channel = ui.state.channels.find((c) => c.id === id);
  $('channel-title').textContent = isApp ? ui.state.app.name : `# ${channel?.name ?? id}`;
  $('channel-topic').textContent = isApp
    ? 'The app: its Home tab, and your direct messages with it'
    : (channel?.topic ?? '');
  if (channel) showLink(channel);
  else $('digest-now').hidden = true;
  $('app-tabs').hidden = !isApp;
  $('channel-tabs').hidden = isApp;
  for (const b of document.querySelectorAll('#app-tabs button, #channel-tabs button'))
    b.classList.toggle('active', b.dataset.tab === ui.tab);
  const home = isApp && ui.tab === 'home';
  const canvas = !isApp && ui.tab === 'canvas';
  $('home').hidden = !home;
  $('canvas').hidden = !canvas;
  $('messages').hidden = home || canvas;
  $('composer').hidden = home || canvas || !canType(id);
  renderSidebar();
  act(followAssistant());
  if (home) {
    await act(post('/pg/home', {}));
    await showHome();
  } else if (canvas) await showCanvas();
  else await showMessages();
}

/** The channel's canvas tab: the canvas as the app last wrote it, following each edit. */
async function showCanvas() {
  const { canvas } = await get('/pg/canvas', { channel: ui.channel });
  const body = h('div', { class: 'canvas-doc' });
  if (canvas) {
    // Rendered by the playground's server from the canvas markdown, user text escaped there.
    body.innerHTML = canvas.html;
    $('canvas').replaceChildren(h('div', { class: 'canvas-title' }, canvas.title), body);
  } else {
    $('canvas').replaceChildren(
      h(
        'div',
        { class: 'empty' },
        'This channel has no canvas. Tick “Keep the plan in a channel canvas” in /plan link.',
      ),
    );
  }
}

/** The channel header as the app's store has it: its link, and *Post today's digest* when linked. */
function showLink(link) {
  const channel = ui.state.channels.find((c) => c.id === ui.channel);
  if (!channel) return;
  channel.linked = link.linked;
  channel.topic = link.topic;
  $('channel-topic').textContent = link.topic;
  $('digest-now').hidden = !link.linked;
}

/** Reads the open channel's link again (a form such as `/plan link` may have changed it). */
async function refreshLink() {
  if (!ui.channel || ui.channel === ui.state.app.dm) return;
  const { link } = await get('/pg/channel', { channel: ui.channel });
  if (link) showLink(link);
}

// ---------------------------------------------------------------------------------------------
// The assistant (Slack's AI side panel): a thread in the app's DM, following the open channel

/** The channel the panel is about: the open one, unless it is the app's DM. */
const lookedAt = () => (ui.channel && ui.channel !== ui.state.app.dm ? ui.channel : undefined);

async function openAssistant() {
  const context = lookedAt();
  const started = await post('/pg/assistant', context ? { context } : {});
  ui.assistant = { ...started, context };
  $('assistant').hidden = false;
  await showAssistant();
}

async function showAssistant() {
  if (!ui.assistant) return;
  const { messages, status, title, prompts } = await get('/pg/assistant', { ts: ui.assistant.threadTs });
  const channel = ui.state.channels.find((c) => c.id === ui.assistant.context);
  $('assistant-context').textContent = channel ? `Looking at # ${channel.name}` : 'Not looking at a channel';
  $('assistant-title').textContent = title || 'Assistant';
  $('assistant-messages').replaceChildren(...messages.map((m) => renderMessage(m, true)));
  $('assistant-status').textContent = status ? `${ui.state.app.name} ${status}` : '';
  $('assistant-prompts').replaceChildren(
    ...prompts.map((p) =>
      h('button', { type: 'button', title: p.message, onclick: () => act(askAssistant(p.message)) }, p.title),
    ),
  );
}

async function askAssistant(text) {
  if (!ui.assistant) return;
  await post('/pg/compose', { channel: ui.assistant.channel, text, threadTs: ui.assistant.threadTs });
}

/** The panel follows the person to another channel, as Slack tells the app. */
async function followAssistant() {
  const context = lookedAt();
  if (!ui.assistant || !context || context === ui.assistant.context) return;
  ui.assistant.context = context;
  await post('/pg/assistant/context', { threadTs: ui.assistant.threadTs, context });
  await showAssistant();
}

function connectEvents() {
  ui.events?.close();
  ui.events = new EventSource(`/pg/events?user=${encodeURIComponent(ui.me)}`);
  ui.events.onmessage = (e) => {
    const change = JSON.parse(e.data);
    if (change.kind === 'messages') {
      if (change.channel === ui.channel && ui.tab === 'messages') act(showMessages());
      else if (change.channel === ui.state.app.dm || ui.state.channels.some((c) => c.id === change.channel)) {
        ui.unread.add(change.channel);
        renderSidebar();
      }
      if (ui.thread?.channel === change.channel) act(showThread());
      if (ui.assistant?.channel === change.channel) act(showAssistant());
    } else if (change.kind === 'modal') {
      act(showModal());
      act(refreshLink());
    } else if (change.kind === 'home' && ui.tab === 'home') act(showHome());
    else if (change.kind === 'canvas' && change.channel === ui.channel && ui.tab === 'canvas')
      act(showCanvas());
  };
}

async function switchPerson(id) {
  delete document.body.dataset.user;
  // An assistant thread is its person's: another person opens their own.
  ui.assistant = null;
  $('assistant').hidden = true;
  ui.me = id;
  ui.editing = null;
  localStorage.setItem('pg.user', id);
  ui.unread.clear();
  ui.thread = null;
  $('thread').hidden = true;
  ui.state = await get('/pg/state');
  $('workspace').textContent = ui.state.team;
  $('person').replaceChildren(
    ...ui.state.people.map((p) =>
      h('option', { value: p.id, selected: p.id === id }, `${p.realName} — ${p.role}`),
    ),
  );
  renderLightning();
  connectEvents();
  // The conversation open before the switch — at first, the one the address names (a permalink) —
  // when this person has it.
  const wanted = ui.channel ?? location.hash.slice(1).split('/')[0];
  const keep = wanted && (wanted.startsWith('D') || ui.state.channels.some((c) => c.id === wanted));
  const first = ui.state.channels.find((c) => c.id === ui.state.start) ?? ui.state.channels[0];
  await openChannel(keep ? (wanted.startsWith('D') ? ui.state.app.dm : wanted) : first.id);
  await showModal();
  // Says the switch is complete (the page now shows what this person sees).
  document.body.dataset.user = id;
}

function renderLightning() {
  const globals = ui.state.shortcuts.filter((s) => s.type === 'global');
  $('lightning-menu').replaceChildren(
    h('h3', {}, ui.state.app.name),
    ...globals.map((s) =>
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          onclick: () => {
            $('lightning-menu').hidden = true;
            act(post('/pg/shortcut', { callbackId: s.callbackId }));
          },
        },
        s.name,
        h('span', { class: 'desc' }, s.description),
      ),
    ),
  );
}

async function compose(text, threadTs) {
  const answer = await post('/pg/compose', {
    channel: ui.thread && threadTs ? ui.thread.channel : ui.channel,
    text,
    ...(threadTs ? { threadTs } : {}),
  });
  if (answer.notice) toast(answer.notice, true);
  return answer;
}

function wireComposer(formId, textId, threadTs) {
  const text = $(textId);
  const send = () => {
    const value = text.value.trim();
    if (!value) return;
    text.value = '';
    // A command Slack does not know leaves what was typed in the composer, as Slack does.
    act(
      compose(value, threadTs()).then((answer) => {
        if (answer.notice && !text.value) text.value = value;
      }),
    );
  };
  $(formId).addEventListener('submit', (e) => {
    e.preventDefault();
    send();
  });
  text.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      send();
    }
  });
}

function route() {
  const [channel, ts] = location.hash.slice(1).split('/');
  if (!channel || !ui.state) return;
  ui.highlight = ts ?? null;
  act(openChannel(channel.startsWith('D') ? ui.state.app.dm : channel));
  if (ts) openThread(channel, ts);
}

wireComposer('composer', 'composer-text', () => undefined);
wireComposer('thread-composer', 'thread-text', () => ui.thread?.ts);
$('assistant-open').addEventListener('click', () => act(openAssistant()));
$('assistant-close').addEventListener('click', () => {
  ui.assistant = null;
  $('assistant').hidden = true;
});
$('assistant-composer').addEventListener('submit', (e) => {
  e.preventDefault();
  const value = $('assistant-text').value.trim();
  $('assistant-text').value = '';
  if (value) act(askAssistant(value));
});
$('assistant-text').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) {
    e.preventDefault();
    $('assistant-composer').requestSubmit();
  }
});
$('person').addEventListener('change', (e) => act(switchPerson(e.target.value)));
$('lightning').addEventListener('click', () => ($('lightning-menu').hidden = !$('lightning-menu').hidden));
$('thread-close').addEventListener('click', () => {
  ui.thread = null;
  $('thread').hidden = true;
});
$('digest-now').addEventListener('click', () => act(compose(`${ui.state.command} digest now`)));
for (const b of $('app-tabs').querySelectorAll('button'))
  b.addEventListener('click', () => act(openChannel(ui.state.app.dm, b.dataset.tab)));
for (const b of $('channel-tabs').querySelectorAll('button'))
  b.addEventListener('click', () => act(openChannel(ui.channel, b.dataset.tab)));
window.addEventListener('hashchange', route);
// A click elsewhere closes open menus, as in Slack.
document.addEventListener('click', (e) => {
  for (const menu of document.querySelectorAll('.menu:not([hidden])'))
    if (!menu.parentElement.contains(e.target)) {
      menu.hidden = true;
      menu.closest('.msg-actions')?.classList.remove('open');
    }
});

act(switchPerson(ui.me).then(route));
