# Draws the animal pieces (one SVG per animal and colour) that the web
# board shows: a token, the animal's head and its strength. Run once,
# `python3 make.py` here; the SVG files are committed and embedded in the
# binary (crates/web/src/page.rs).
ANIMALS = {
    "rat": (1, '<circle cx="32" cy="30" r="11"/><circle cx="68" cy="30" r="11"/><ellipse cx="50" cy="50" rx="18" ry="20"/><path d="M50 70 L50 76" stroke-width="3"/>',
            '<path d="M30 58 h-14 M30 62 h-12 M70 58 h14 M70 62 h12" fill="none" stroke-width="2"/>'),
    "cat": (2, '<path d="M28 44 L30 16 L46 32 Z M72 44 L70 16 L54 32 Z"/><circle cx="50" cy="48" r="22"/>',
            '<path d="M28 56 h-14 M28 61 h-12 M72 56 h14 M72 61 h12" fill="none" stroke-width="2"/>'),
    "wolf": (3, '<path d="M30 40 L28 10 L46 28 Z M70 40 L72 10 L54 28 Z"/><path d="M28 34 Q50 22 72 34 L62 60 L50 78 L38 60 Z"/>', ''),
    "dog": (4, '<ellipse cx="50" cy="46" rx="20" ry="22"/><ellipse cx="26" cy="46" rx="8" ry="18"/><ellipse cx="74" cy="46" rx="8" ry="18"/>',
            '<ellipse cx="50" cy="60" rx="6" ry="4" stroke="none" class="ink"/>'),
    "panther": (5, '<circle cx="32" cy="28" r="7"/><circle cx="68" cy="28" r="7"/><ellipse cx="50" cy="48" rx="22" ry="21"/>',
                '<circle cx="40" cy="38" r="3" class="ink"/><circle cx="60" cy="38" r="3" class="ink"/><circle cx="50" cy="32" r="3" class="ink"/>'),
    "tiger": (6, '<circle cx="30" cy="28" r="8"/><circle cx="70" cy="28" r="8"/><ellipse cx="50" cy="48" rx="23" ry="22"/>',
              '<path d="M50 27 v10 M40 30 l3 8 M60 30 l-3 8 M28 46 h8 M72 46 h-8" fill="none" stroke-width="3" class="ink-line"/>'),
    "lion": (7, '<circle cx="50" cy="46" r="29" class="mane"/><circle cx="50" cy="48" r="18"/>', ''),
    "elephant": (8, '<ellipse cx="24" cy="42" rx="14" ry="18"/><ellipse cx="76" cy="42" rx="14" ry="18"/><ellipse cx="50" cy="40" rx="18" ry="18"/><path d="M44 50 Q44 74 56 78 L60 72 Q54 68 56 50 Z"/>', ''),
}
COLOURS = {
    # token fill, token edge, head fill, line and ink, badge fill, badge text
    "white": ("#fbf7ec", "#2b2b2b", "#e9d6a6", "#3a2a10", "#ffffff", "#000000"),
    "black": ("#2b2b2b", "#f2f2f2", "#6b4a2a", "#f2e6cc", "#000000", "#ffffff"),
}
for colour, (token, edge, head, line, badge, text) in COLOURS.items():
    for name, (strength, shape, extra) in ANIMALS.items():
        mane = f'<circle cx="50" cy="46" r="29" fill="{line}" opacity="0.55"/>' if name == "lion" else ""
        shape = shape.replace('<circle cx="50" cy="46" r="29" class="mane"/>', "")
        svg = f'''<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img" aria-label="{colour.capitalize()} {name} {strength}">
<title>{colour.capitalize()} {name}, strength {strength}</title>
<circle cx="50" cy="50" r="47" fill="{token}" stroke="{edge}" stroke-width="4"/>
{mane}<g fill="{head}" stroke="{line}" stroke-width="2.5">{shape}</g>
<circle cx="43" cy="44" r="2.6" fill="{line}"/><circle cx="57" cy="44" r="2.6" fill="{line}"/>
<g stroke="{line}" fill="{line}">{extra.replace('class="ink"', f'fill="{line}"').replace('class="ink-line"', f'stroke="{line}"')}</g>
<circle cx="76" cy="76" r="17" fill="{badge}" stroke="{edge}" stroke-width="3"/>
<text x="76" y="77" font-family="sans-serif" font-weight="bold" font-size="24" fill="{text}" text-anchor="middle" dominant-baseline="central">{strength}</text>
</svg>
'''
        open(f"{colour}-{name}.svg", "w").write(svg)
