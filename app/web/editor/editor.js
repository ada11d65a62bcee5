// The exercise page's code editor: CodeMirror 6 over the plain <textarea> the form posts.
// Without JavaScript the text area is the editor; with it, this keeps the text area in step with
// the editor, so the form posts exactly what the learner sees.
//
// Keyboard: Tab indents only after the learner turns it on (Ctrl-M or Esc then Tab, as
// CodeMirror's documentation describes), so Tab never traps keyboard users. The editable area is
// a labelled textbox for screen readers.
import { basicSetup, EditorView } from "codemirror";
import { python } from "@codemirror/lang-python";

function upgrade(textarea) {
  if (textarea.dataset.upgraded) return;
  textarea.dataset.upgraded = "true";
  const label = document.querySelector(`label[for="${textarea.id}"]`);
  const view = new EditorView({
    doc: textarea.value,
    extensions: [
      basicSetup,
      python(),
      EditorView.contentAttributes.of({
        "aria-label": label ? `${label.textContent}: Python code` : "Python code",
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) textarea.value = update.state.doc.toString();
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
