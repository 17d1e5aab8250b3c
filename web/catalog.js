// FilterCast page, the catalog: the filters of `hello`, in picker order, and what the page
// shows of them (labels, category headings).
import { player } from "./player.js";

/// Headings for servers whose hello has no `categories` (they had these categories).
const CATEGORY_TITLES_BEFORE_HELLO = {
  none: "None",
  colorAdjustment: "Color adjustment",
  colorEffect: "Color effects",
  blur: "Blur",
  sharpen: "Sharpen",
  stylize: "Stylize",
  distortion: "Distortion",
};

const filters = player.filters;

export function descriptorOf(name) {
  return filters.catalog.find((filter) => filter.name === name);
}

export function labelOf(name) {
  return descriptorOf(name)?.label || name;
}

export function categoryOf(filter) {
  return typeof filter.category === "string" && filter.category ? filter.category : "other";
}

/// The server's heading for `category`; unknown ones get a readable form of their name
/// ("colorEffect" → "Color effect").
export function categoryTitle(category) {
  const titles = filters.categoryTitles || CATEGORY_TITLES_BEFORE_HELLO;
  if (Object.hasOwn(titles, category) && typeof titles[category] === "string") return titles[category];
  const words = category.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/// "none" first, then the filters grouped by category: the categories in the order they first
/// appear in the catalog, each category's filters in catalog order (a stable partition, so a
/// catalog already listed by category keeps its order). The buttons follow this order.
function groupCatalog(filters) {
  const none = filters.filter((filter) => filter.name === "none");
  const groups = new Map();
  for (const filter of filters) {
    if (filter.name === "none") continue;
    const key = categoryOf(filter);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(filter);
  }
  return [...none, ...[...groups.values()].flat()];
}

// A new catalog while connected (a LUT was added): a new choice of `lut`.
player.on("catalog", (message) => { filters.catalog = groupCatalog(message.filters); });

player.on("hello", (hello) => {
  filters.catalog = groupCatalog(Array.isArray(hello.filters) ? hello.filters : []);
  const titles = hello.categories;
  filters.categoryTitles = titles && typeof titles === "object" && !Array.isArray(titles) ? titles : null;
});
