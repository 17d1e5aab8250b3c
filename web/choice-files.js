// FilterCast page, new options from files: a JPEG or PNG picture becomes a style of the style
// filter (PUT /api/styles/NAME) or a background of backgroundReplace (PUT /api/backgrounds/NAME,
// then chosen for the link), a .cube file a LUT of the lut filter (PUT /api/luts/NAME), for
// everybody (a controller). Each is taken where its options are shown — dropped on the picker, or
// picked with a file button under it (a drop alone is no use on a phone or to a keyboard). The
// server's answer is said in a toast; the new option arrives with the catalog it sends.
import { mayControl } from "./access.js";
import { putFile } from "./api.js";
import { fileStem } from "./helpers.js";
import { toast } from "./toast.js";

const PICTURE = {
  accept: ".jpg,.jpeg,.png,image/jpeg,image/png",
  matches: (file) => /^image\/(jpeg|png)$/.test(file.type) || /\.(jpe?g|png)$/i.test(file.name),
  stem: "picture",
  what: "JPEG or PNG picture",
};

/// What a picker takes, by filter: the choice parameter it fills, which files, where they go, how
/// the button and the drop say so, and whether the link then takes the new option.
const KINDS = {
  style: {
    ...PICTURE,
    param: "style",
    path: (name) => `api/styles/${name}`,
    done: (name) => [`Added the style ${name}`, `Style ${name}`],
    button: "Add a style picture…",
    title: "Paint in the style of a JPEG or PNG picture of yours (or drop one onto the styles)",
  },
  backgroundReplace: {
    ...PICTURE,
    param: "background",
    path: (name) => `api/backgrounds/${name}`,
    done: (name) => [`Added the background ${name}`, `Background ${name}`],
    button: "Add a background picture…",
    title: "Put a JPEG or PNG picture of yours behind the person (or drop one onto the backgrounds)",
    selects: true,
  },
  lut: {
    param: "lut",
    accept: ".cube",
    matches: (file) => /\.cube$/i.test(file.name),
    stem: "lut",
    what: ".cube file",
    path: (name) => `api/luts/${name}`,
    done: (name) => [`Added the LUT ${name}`, `LUT ${name}`],
    button: "Add a LUT file…",
    title: "Add a colour LUT (.cube file) for everybody (or drop one onto the LUTs)",
  },
};

/// Sends `file` as the option named after it; once it is one, `choose(name)` for a kind that selects it.
async function upload(kind, file, choose) {
  const name = fileStem(file.name, kind.stem);
  const [done, what] = kind.done(name);
  const said = await putFile(kind.path(name), file, done, what);
  toast(said);
  if (said === done && kind.selects) choose(name);
}

/// Makes `picker` (the options of `filter`'s choice parameter `param`: the style's, the lut's,
/// backgroundReplace's background) take a dropped file of its kind as a new option — the page's
/// other drop targets (a video's upload, a look) never see that drop —, and returns the row with
/// its file button to put under it (null for a parameter whose options are not made from files).
/// `choose(name)`: makes the link take the new option (backgrounds).
export function takesFiles(picker, filter, param, choose) {
  const kind = KINDS[filter];
  if (!kind || kind.param !== param) return null;
  picker.title = kind.title;
  picker.addEventListener("dragover", (event) => {
    if (!mayControl() || !Array.from(event.dataTransfer?.types || []).includes("Files")) return;
    event.preventDefault();
    event.stopPropagation();
    picker.classList.add("drop-target");
  });
  picker.addEventListener("dragleave", () => picker.classList.remove("drop-target"));
  picker.addEventListener("drop", (event) => {
    picker.classList.remove("drop-target");
    const [file] = event.dataTransfer?.files || [];
    if (!mayControl() || !file || !kind.matches(file)) return;
    event.preventDefault();
    event.stopPropagation();
    upload(kind, file, choose);
  });
  return fileButton(kind, filter, choose);
}

/// A button that opens the file chooser of a hidden `input type=file` (`data-adds`: the filter).
function fileButton(kind, filter, choose) {
  const row = document.createElement("div");
  row.className = "choice-files";
  const input = document.createElement("input");
  Object.assign(input, { type: "file", accept: kind.accept, hidden: true });
  input.dataset.adds = filter;
  input.setAttribute("aria-label", kind.button.replace("…", ""));
  const button = document.createElement("button");
  button.type = "button";
  button.className = "text-button";
  button.textContent = kind.button;
  button.title = kind.title;
  button.hidden = !mayControl();
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", () => {
    const [file] = input.files;
    input.value = ""; // picking the same file again fires change again
    if (!file) return;
    if (kind.matches(file)) upload(kind, file, choose);
    else toast(`${file.name} is not a ${kind.what}`);
  });
  row.append(button, input);
  return row;
}
