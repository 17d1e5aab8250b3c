// FilterCast page, style pictures: a JPEG or PNG dropped on the style filter's picker becomes a
// style of its own for everybody (PUT /api/styles/NAME: a controller, on a server with --styles).
// The server's answer is said in a toast; the new choice arrives with the catalog it sends.
import { mayControl } from "./access.js";
import { putFile } from "./api.js";
import { fileStem } from "./helpers.js";
import { toast } from "./toast.js";

const PICTURE = /\.(jpe?g|png)$/i;

/// Sends `file` as the style named after it.
async function uploadStylePicture(file) {
  const name = fileStem(file.name, "picture");
  toast(await putFile(`api/styles/${name}`, file, `Added the style ${name}`, `Style ${name}`));
}

/// The picture a drag on the picker carries, if it is one a controller may drop.
function droppedPicture(event) {
  const [file] = event.dataTransfer?.files || [];
  return mayControl() && file && (/^image\/(jpeg|png)$/.test(file.type) || PICTURE.test(file.name)) ? file : null;
}

/// Makes `picker` (the style filter's) take a dropped picture as a new style; the page's other
/// drop targets (a video's upload, a look) never see that drop.
export function takesStylePictures(picker) {
  picker.title = "Drop a JPEG or PNG picture here to paint in its style";
  picker.addEventListener("dragover", (event) => {
    if (!mayControl() || !Array.from(event.dataTransfer?.types || []).includes("Files")) return;
    event.preventDefault();
    event.stopPropagation();
    picker.classList.add("drop-target");
  });
  picker.addEventListener("dragleave", () => picker.classList.remove("drop-target"));
  picker.addEventListener("drop", (event) => {
    picker.classList.remove("drop-target");
    const file = droppedPicture(event);
    if (!file) return;
    event.preventDefault();
    event.stopPropagation();
    uploadStylePicture(file);
  });
}
