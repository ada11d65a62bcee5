// The exercise page's code editor: CodeMirror 6 over the plain <textarea> the form posts.
// Without JavaScript the text area is the editor; with it, this keeps the text area in step with
// the editor, so the form posts exactly what the learner sees.
//
// Indentation is Python's: four spaces a level, so Enter after `for …:` indents by four. Tab
// indents and Shift-Tab dedents, as in any code editor; a keyboard user leaves the editor with
// Escape then Tab (or Ctrl-M turns Tab's indenting off), as CodeMirror's documentation
// describes, so Tab never traps them. The editable area is a labelled textbox for screen
// readers.
import { basicSetup, EditorView } from "codemirror";
import { keymap } from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import { python } from "@codemirror/lang-python";
import { HighlightStyle, indentUnit, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";

// The editor in the site's colours, through its CSS variables: it follows the light and dark
// themes as the rest of the page does, with the token colours of the lesson code blocks (each
// at least 5.5:1 on --code-bg in both themes). basicSetup's own highlighting is a fallback
// only, so this one replaces it.
const siteTheme = EditorView.theme({
  "&": { backgroundColor: "var(--code-bg)", color: "var(--text)" },
  ".cm-content": { caretColor: "var(--text)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  ".cm-gutters": {
    backgroundColor: "var(--surface-2)",
    color: "var(--muted)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent-soft) 55%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent-soft)", color: "var(--text)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "var(--accent-soft)",
  },
  ".cm-matchingBracket": { backgroundColor: "var(--accent-soft)", color: "var(--text)", outline: "1px solid var(--accent)" },
  ".cm-tooltip, .cm-panels": { backgroundColor: "var(--surface)", color: "var(--text)", border: "1px solid var(--border)" },
});

const siteHighlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.moduleKeyword], color: "var(--hl-keyword)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--hl-string)" },
  { tag: tags.comment, color: "var(--hl-comment)", fontStyle: "italic" },
  { tag: [tags.number, tags.integer, tags.float], color: "var(--hl-number)" },
  { tag: [tags.bool, tags.null, tags.self], color: "var(--hl-constant)" },
  { tag: [tags.function(tags.definition(tags.variableName)), tags.definition(tags.className)], color: "var(--hl-definition)", fontWeight: "600" },
  { tag: [tags.standard(tags.variableName), tags.function(tags.standard(tags.variableName))], color: "var(--hl-builtin)" },
  { tag: tags.meta, color: "var(--hl-decorator)" },
  { tag: tags.invalid, color: "var(--danger)" },
]);

// Drafts. The browser keeps a copy of every edit under its owner (the account, or this
// browser's visitor) and the exercise, with the version of the server's draft it was edited
// from (`base`, the server's saved_ms). On load the copy wins only if the server has not kept a
// newer draft since it was made: so a tab closed before its save reached the server loses
// nothing, and an old copy on one device never overwrites what the learner wrote on another.
// No clocks compared. An account's copy is removed once the server has the script: on a shared
// machine, signed-in work does not stay behind in the browser.
function draftKeeper(textarea) {
  const holder = textarea.closest("[data-draft]");
  if (!holder) return null;
  const key = `lockstep.draft.${holder.dataset.owner || "visitor"}.${holder.dataset.draft}`;
  const status = holder.querySelector("[data-role=draft-status]");
  // The page writes each message in its own language (data-said-*).
  const say = (which) => {
    if (status) status.textContent = holder.dataset[which] || "";
  };
  let base = Number(holder.dataset.savedMs || 0);
  const read = () => {
    try {
      return JSON.parse(localStorage.getItem(key) || "null");
    } catch {
      return null;
    }
  };
  const write = (copy) => {
    try {
      localStorage.setItem(key, JSON.stringify(copy));
    } catch {
      // Storage full or refused (private mode): the server's copy is all there is.
    }
  };
  const kept = read();
  if (
    holder.dataset.pinned !== "true" &&
    kept && typeof kept.script === "string" &&
    kept.base >= base && kept.script !== textarea.value
  ) {
    textarea.value = kept.script;
    say("saidRestored");
  }
  const url = holder.dataset.autosave;
  let timer = null;
  let pending = null;
  const save = async () => {
    const script = pending;
    pending = null;
    const exercise = holder.dataset.draft;
    const file_name = textarea.form?.querySelector("input[name=file_name]")?.value;
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ exercise, script, file_name }),
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new Error(body.error || `the server answered ${response.status}`);
      base = body.saved_ms;
      if (pending === null) {
        try {
          localStorage.removeItem(key);
        } catch {
          // Nothing kept to remove.
        }
      }
      say("saidSaved");
    } catch (e) {
      console.warn("the draft was not saved:", e.message);
      say("saidSaveFailed");
    }
  };
  return (script) => {
    write({ script, base });
    if (!url) {
      say("saidKept");
      return;
    }
    pending = script;
    clearTimeout(timer);
    // One save per pause in typing, not one per key.
    timer = setTimeout(save, 1500);
  };
}

function upgrade(textarea) {
  if (textarea.dataset.upgraded) return;
  textarea.dataset.upgraded = "true";
  const label = document.querySelector(`label[for="${textarea.id}"]`);
  const code = textarea.closest("[data-code-label]")?.dataset.codeLabel || "Python";
  const keep = draftKeeper(textarea);
  const view = new EditorView({
    doc: textarea.value,
    extensions: [
      basicSetup,
      keymap.of([indentWithTab]),
      indentUnit.of("    "),
      python(),
      siteTheme,
      syntaxHighlighting(siteHighlight),
      EditorView.contentAttributes.of({
        "aria-label": label ? `${label.textContent}: ${code}` : code,
      }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        textarea.value = update.state.doc.toString();
        if (keep) keep(textarea.value);
      }),
    ],
  });
  view.dom.classList.add("code-editor");
  textarea.insertAdjacentElement("afterend", view.dom);
  textarea.hidden = true;

  // An upload replaces the script in the editor; the learner still presses Submit.
  const form = textarea.form;
  const upload = form && form.querySelector("input[type=file][data-upload]");
  if (upload) {
    upload.addEventListener("change", async () => {
      const file = upload.files && upload.files[0];
      if (!file) return;
      const text = await file.text();
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      const name = form.querySelector("input[name=file_name]");
      if (name && /^[A-Za-z0-9._-]+\.py$/.test(file.name)) name.value = file.name;
      // The editor holds the script now: the form must not send the file as well, or the
      // server would take the file over what the learner edits next.
      upload.value = "";
    });
  }
}

function upgradeAll() {
  document.querySelectorAll("textarea[data-editor]").forEach(upgrade);
}

// Only after the page is hydrated: changing the DOM earlier would confuse hydration. Pages
// reached by client-side navigation add their text areas later, so keep watching.
function start() {
  upgradeAll();
  new MutationObserver(upgradeAll).observe(document.body, { childList: true, subtree: true });
}
const root = document.documentElement;
if (root.dataset.hydrated) {
  start();
} else {
  const waiting = new MutationObserver(() => {
    if (root.dataset.hydrated) {
      waiting.disconnect();
      start();
    }
  });
  waiting.observe(root, { attributes: true, attributeFilter: ["data-hydrated"] });
}
