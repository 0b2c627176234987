#!/bin/sh
# Draws the sample catalog's pictures: each fruit as an SVG still life (the fruit on a table
# before a wall, lit from the upper left), then rasterises it with vips (librsvg) to a
# 1600×1200 JPEG without metadata. Both files are kept beside this script.
#
#   sh Content/pictures/make.sh              every fruit
#   sh Content/pictures/make.sh kiwi pear    only these
#
# The drawings are plain text and the scatter of seeds and speckles comes from a fixed
# generator, so the same script gives the same SVG files on any machine.
set -eu
cd "$(dirname "$0")"

FRUITS="apple banana cherry grape kiwi lemon orange pear strawberry watermelon"

# MARK: - Scene

# The SVG's start: the wall and table colours (top and bottom of each), a soft mottled
# texture over both, and the shared filters.
# Usage: scene WALL_TOP WALL_BOTTOM TABLE_TOP TABLE_BOTTOM
scene() {
    cat <<EOF
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="1600" height="1200" viewBox="0 0 1600 1200">
<!-- Drawn by make.sh beside this file: change that, then run it again. -->
<defs>
<linearGradient id="wall" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="$1"/><stop offset="1" stop-color="$2"/></linearGradient>
<linearGradient id="table" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="$3"/><stop offset="1" stop-color="$4"/></linearGradient>
<linearGradient id="edge" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fff" stop-opacity="0.35"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>
<radialGradient id="vignette" cx="0.5" cy="0.45" r="0.75"><stop offset="0.55" stop-color="#2b2014" stop-opacity="0"/><stop offset="1" stop-color="#2b2014" stop-opacity="0.3"/></radialGradient>
<filter id="mottle" x="0" y="0" width="100%" height="100%">
<feTurbulence type="fractalNoise" baseFrequency="0.005 0.007" numOctaves="3" seed="4"/>
<feColorMatrix type="matrix" values="0 0 0 0 0.3  0 0 0 0 0.22  0 0 0 0 0.14  1.2 0 0 0 -0.5"/>
</filter>
<filter id="peel" x="-10%" y="-10%" width="120%" height="120%">
<feTurbulence type="fractalNoise" baseFrequency="0.09" numOctaves="2" seed="11" result="noise"/>
<feDiffuseLighting in="noise" surfaceScale="1.2" lighting-color="#fff" diffuseConstant="1.1" result="light"><feDistantLight azimuth="235" elevation="60"/></feDiffuseLighting>
<feComposite in="light" in2="SourceAlpha" operator="in" result="lit"/>
<feBlend in="SourceGraphic" in2="lit" mode="multiply"/>
</filter>
<filter id="fuzz" x="-10%" y="-10%" width="120%" height="120%">
<feTurbulence type="fractalNoise" baseFrequency="0.25" numOctaves="1" seed="8" result="noise"/>
<feColorMatrix in="noise" type="matrix" values="0 0 0 0 0.25  0 0 0 0 0.17  0 0 0 0 0.08  0 0 0 0.9 -0.2" result="hairs"/>
<feComposite in="hairs" in2="SourceAlpha" operator="in" result="fur"/>
<feMerge><feMergeNode in="SourceGraphic"/><feMergeNode in="fur"/></feMerge>
</filter>
<filter id="soft" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="28"/></filter>
<filter id="glow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="14"/></filter>
<filter id="contact" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="7"/></filter>
<linearGradient id="leaf" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8fcf58"/><stop offset="1" stop-color="#3c7a22"/></linearGradient>
<path id="leafShape" d="M 0 0 C 50 -70 150 -95 230 -60 C 160 10 70 30 0 0 Z"/>
</defs>
<rect width="1600" height="1200" fill="url(#wall)"/>
<rect y="820" width="1600" height="380" fill="url(#table)"/>
<rect y="820" width="1600" height="14" fill="url(#edge)"/>
<rect width="1600" height="1200" filter="url(#mottle)" opacity="0.28"/>
EOF
}

# The SVG's end: a vignette over everything.
finish() {
    printf '%s\n' '<rect width="1600" height="1200" fill="url(#vignette)"/>' '</svg>'
}

# The shadow of something resting on the table: a wide soft one cast back and to the right,
# and a darker one where it touches.
# Usage: shadow X Y HALF_WIDTH (Y is the lowest point of what rests there)
shadow() {
    cat <<EOF
<ellipse cx="$(($1 + 40))" cy="$(($2 - 22))" rx="$(($3 * 11 / 10))" ry="$(($3 / 6 + 20))" fill="#3b2614" opacity="0.32" filter="url(#soft)"/>
<ellipse cx="$1" cy="$(($2 - 8))" rx="$(($3 * 6 / 10))" ry="16" fill="#2a1a0c" opacity="0.45" filter="url(#contact)"/>
EOF
}

# A leaf with its midrib, from the point it grows at.
# Usage: leaf TRANSFORM (translate to the point, then rotate and scale)
leaf() {
    cat <<EOF
<g transform="$1"><use xlink:href="#leafShape" fill="url(#leaf)"/>
<path d="M 4 -2 C 80 -40 160 -58 226 -60" fill="none" stroke="#2e6518" stroke-width="4" stroke-linecap="round" opacity="0.6"/></g>
EOF
}

# A soft highlight where the light falls.
# Usage: highlight X Y RX RY ANGLE OPACITY
highlight() {
    echo "<ellipse cx=\"$1\" cy=\"$2\" rx=\"$3\" ry=\"$4\" transform=\"rotate($5 $1 $2)\" fill=\"#fff\" opacity=\"$6\" filter=\"url(#glow)\"/>"
}

# Points scattered over a box, one a line as "x y", from a fixed generator (Park–Miller,
# exact in awk's doubles), so every run gives the same points.
# Usage: scatter SEED COUNT X Y WIDTH HEIGHT
scatter() {
    awk -v s="$1" -v n="$2" -v x="$3" -v y="$4" -v w="$5" -v h="$6" 'BEGIN {
        for (i = 0; i < n; i++) {
            s = (s * 16807) % 2147483647; a = s / 2147483647
            s = (s * 16807) % 2147483647; b = s / 2147483647
            printf "%.1f %.1f\n", x + a * w, y + b * h
        }
    }'
}

# MARK: - Fruits

apple() {
    scene "#e6eedb" "#cddbbd" "#bba47f" "#9a8160"
    shadow 800 928 330
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.36" cy="0.34" r="0.78"><stop offset="0" stop-color="#ff8f73"/><stop offset="0.28" stop-color="#e63b30"/><stop offset="0.7" stop-color="#b0121f"/><stop offset="1" stop-color="#680a13"/></radialGradient>
<path id="body" d="M 800 380 C 720 320 520 330 470 480 C 420 640 500 860 640 910 C 700 930 750 905 800 900 C 850 905 900 930 960 910 C 1100 860 1180 640 1130 480 C 1080 330 880 320 800 380 Z"/>
<clipPath id="inside"><use xlink:href="#body"/></clipPath>
</defs>
<use xlink:href="#body" fill="url(#skin)"/>
<g clip-path="url(#inside)" opacity="0.35" filter="url(#glow)">
<path d="M 620 420 C 600 560 610 760 660 900" stroke="#5e0710" stroke-width="26" fill="none"/>
<path d="M 930 410 C 980 560 990 760 940 900" stroke="#5e0710" stroke-width="30" fill="none"/>
<path d="M 1040 470 C 1100 600 1090 760 1030 880" stroke="#f6b640" stroke-width="34" fill="none"/>
<ellipse cx="800" cy="385" rx="110" ry="45" fill="#4a0710"/>
</g>
EOF
    scatter 17 70 520 420 560 430 |
        awk '{ printf "<circle cx=\"%s\" cy=\"%s\" r=\"3.5\" fill=\"#ffd9a0\" opacity=\"0.45\" clip-path=\"url(#inside)\"/>\n", $1, $2 }'
    highlight 640 520 60 110 25 0.5
    highlight 1060 700 18 70 -15 0.18
    cat <<'EOF'
<path d="M 800 392 C 803 330 812 290 842 248" fill="none" stroke="#5b3a1e" stroke-width="20" stroke-linecap="round"/>
<path d="M 800 392 C 803 330 812 290 842 248" fill="none" stroke="#9a6a3c" stroke-width="6" stroke-linecap="round" transform="translate(-5 0)"/>
EOF
    leaf "translate(832 270) rotate(-8)"
    finish
}

banana() {
    scene "#e0eaf3" "#c4d5e5" "#c8b79c" "#a69475"
    shadow 780 835 420
    cat <<'EOF'
<defs>
<linearGradient id="skin" gradientUnits="userSpaceOnUse" x1="0" y1="520" x2="0" y2="850"><stop offset="0" stop-color="#fff39a"/><stop offset="0.45" stop-color="#f8d52c"/><stop offset="1" stop-color="#c8920b"/></linearGradient>
<linearGradient id="green" gradientUnits="userSpaceOnUse" x1="1050" y1="0" x2="1260" y2="0"><stop offset="0" stop-color="#9db83a" stop-opacity="0"/><stop offset="1" stop-color="#8aa630" stop-opacity="0.85"/></linearGradient>
<path id="body" d="M 330 520 C 420 880 1080 980 1270 470 L 1230 450 C 1020 760 480 700 360 505 Z"/>
<clipPath id="inside"><use xlink:href="#body"/></clipPath>
</defs>
<use xlink:href="#body" fill="url(#skin)"/>
<g clip-path="url(#inside)">
<use xlink:href="#body" fill="url(#green)"/>
<path d="M 345 512 C 440 790 1060 860 1250 460" fill="none" stroke="#fff8c4" stroke-width="10" opacity="0.55" filter="url(#contact)"/>
<path d="M 345 520 C 440 830 1070 920 1260 468" fill="none" stroke="#9a6a08" stroke-width="8" opacity="0.35" filter="url(#contact)"/>
</g>
EOF
    scatter 5 24 450 640 700 120 |
        awk '{ printf "<ellipse cx=\"%s\" cy=\"%s\" rx=\"7\" ry=\"4\" fill=\"#6b4a12\" opacity=\"0.45\" clip-path=\"url(#inside)\"/>\n", $1, $2 }'
    highlight 760 700 230 22 8 0.45
    cat <<'EOF'
<ellipse cx="342" cy="512" rx="22" ry="15" transform="rotate(-60 342 512)" fill="#3d2a10"/>
<path d="M 1232 452 L 1268 472 L 1330 382 L 1300 364 Z" fill="#7d8a32"/>
<path d="M 1300 364 L 1330 382 L 1338 370 L 1308 352 Z" fill="#4a3b1f"/>
EOF
    finish
}

cherry() {
    scene "#f8ebe6" "#efd4cc" "#d6bfae" "#b99c86"
    shadow 640 915 190
    shadow 960 960 200
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.36" cy="0.34" r="0.8"><stop offset="0" stop-color="#ff6a7a"/><stop offset="0.3" stop-color="#c8102e"/><stop offset="0.75" stop-color="#7d0019"/><stop offset="1" stop-color="#45000f"/></radialGradient>
<path id="body" d="M 0 -150 C 60 -200 190 -170 200 -20 C 210 130 100 200 0 200 C -100 200 -210 130 -200 -20 C -190 -170 -60 -200 0 -150 Z"/>
</defs>
<path d="M 640 570 C 650 430 720 300 860 230" fill="none" stroke="#4f6b22" stroke-width="13" stroke-linecap="round"/>
<path d="M 960 610 C 940 450 900 320 860 230" fill="none" stroke="#5d7b2a" stroke-width="13" stroke-linecap="round"/>
<g transform="translate(640 720) scale(0.95)"><use xlink:href="#body" fill="url(#skin)"/>
<ellipse cx="0" cy="-150" rx="50" ry="18" fill="#3a0009" opacity="0.5" filter="url(#contact)"/></g>
<g transform="translate(960 760)"><use xlink:href="#body" fill="url(#skin)"/>
<ellipse cx="0" cy="-150" rx="50" ry="18" fill="#3a0009" opacity="0.5" filter="url(#contact)"/></g>
EOF
    highlight 575 640 34 60 30 0.55
    highlight 895 680 36 64 30 0.55
    highlight 700 820 10 40 -20 0.2
    highlight 1030 870 10 42 -20 0.2
    cat <<'EOF'
<path d="M 852 222 L 872 238 L 880 226 L 862 212 Z" fill="#3f5418"/>
EOF
    leaf "translate(866 228) rotate(-18) scale(1.1)"
    finish
}

grape() {
    scene "#eef0e1" "#dce2c5" "#c8b28d" "#a78f69"
    shadow 800 945 320
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.35" cy="0.32" r="0.8"><stop offset="0" stop-color="#c9a3e3"/><stop offset="0.3" stop-color="#7b3aa3"/><stop offset="0.75" stop-color="#43175f"/><stop offset="1" stop-color="#250833"/></radialGradient>
<radialGradient id="bloom" cx="0.5" cy="0.5" r="0.5"><stop offset="0.6" stop-color="#d9d2e8" stop-opacity="0"/><stop offset="1" stop-color="#d9d2e8" stop-opacity="0.35"/></radialGradient>
<path id="vine" d="M 0 120 C -60 100 -150 110 -190 40 C -150 20 -200 -40 -170 -90 C -120 -70 -110 -130 -60 -170 C -40 -130 -10 -150 0 -210 C 10 -150 40 -130 60 -170 C 110 -130 120 -70 170 -90 C 200 -40 150 20 190 40 C 150 110 60 100 0 120 Z"/>
</defs>
<g transform="translate(590 290) rotate(-40) scale(0.95)"><use xlink:href="#vine" fill="url(#leaf)"/>
<path d="M 0 110 L 0 -190 M 0 60 L -170 -75 M 0 60 L 170 -75 M 0 90 L -175 35 M 0 90 L 175 35" stroke="#2e6518" stroke-width="5" opacity="0.55" fill="none" stroke-linecap="round"/></g>
<path d="M 800 300 C 795 260 810 220 850 180" fill="none" stroke="#6b5a2a" stroke-width="16" stroke-linecap="round"/>
<path d="M 560 400 L 810 300 L 1050 400 L 900 810 L 790 880 L 700 810 Z" fill="#2a0b3a"/>
EOF
    # Rows of grapes, the top row first so the lower ones overlap it; each grape nudged a
    # little from its place in the row.
    awk 'BEGIN {
        split("6 5 5 4 4 3 2 1", counts, " "); s = 29; y = 360
        for (r = 1; r <= 8; r++) {
            n = counts[r]; w = 2 * 66; x0 = 800 - (n - 1) * w / 2 + (r % 2 ? 0 : 8)
            for (i = 0; i < n; i++) {
                s = (s * 16807) % 2147483647; dx = (s / 2147483647 - 0.5) * 22
                s = (s * 16807) % 2147483647; dy = (s / 2147483647 - 0.5) * 22
                x = x0 + i * w + dx; cy = y + dy
                printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"68\" fill=\"url(#skin)\"/>", x, cy
                printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"68\" fill=\"url(#bloom)\"/>", x, cy
                printf "<ellipse cx=\"%.1f\" cy=\"%.1f\" rx=\"13\" ry=\"22\" transform=\"rotate(30 %.1f %.1f)\" fill=\"#fff\" opacity=\"0.55\" filter=\"url(#contact)\"/>\n", x - 26, cy - 26, x - 26, cy - 26
            }
            y += 74
        }
    }'
    finish
}

kiwi() {
    scene "#f4ebd9" "#e6d5b6" "#b99b75" "#957855"
    shadow 600 850 270
    shadow 1020 955 260
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.38" cy="0.34" r="0.8"><stop offset="0" stop-color="#b8966a"/><stop offset="0.5" stop-color="#86643c"/><stop offset="1" stop-color="#4a3420"/></radialGradient>
<radialGradient id="flesh" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#f6f8d2"/><stop offset="0.28" stop-color="#c9e06a"/><stop offset="0.75" stop-color="#79b02e"/><stop offset="1" stop-color="#4f8a1f"/></radialGradient>
<radialGradient id="core" cx="0.5" cy="0.5" r="0.5"><stop offset="0.55" stop-color="#fbf8e2"/><stop offset="1" stop-color="#fbf8e2" stop-opacity="0"/></radialGradient>
<path id="seed" d="M 0 -9 C 6 -4 6 6 0 10 C -6 6 -6 -4 0 -9 Z" fill="#1c1a10"/>
<path id="ray" d="M 0 -80 L 0 -215" stroke="#eef7b8" stroke-width="5" stroke-linecap="round" opacity="0.4"/>
</defs>
<ellipse cx="600" cy="640" rx="270" ry="210" transform="rotate(-12 600 640)" fill="url(#skin)" filter="url(#fuzz)"/>
EOF
    highlight 500 540 90 40 -20 0.25
    cat <<'EOF'
<ellipse cx="1020" cy="765" rx="252" ry="190" fill="#5a3f24"/>
<ellipse cx="1020" cy="725" rx="252" ry="232" fill="url(#skin)" filter="url(#fuzz)"/>
<ellipse cx="1020" cy="722" rx="236" ry="218" fill="url(#flesh)"/>
EOF
    awk 'BEGIN {
        for (a = 0; a < 360; a += 7.5)
            printf "<use xlink:href=\"#ray\" transform=\"translate(1020 722) scale(1 0.92) rotate(%s)\"/>\n", a
        for (a = 0; a < 360; a += 10) {
            r = (a % 20 == 0) ? 100 : 120
            printf "<use xlink:href=\"#seed\" transform=\"translate(1020 722) scale(1 0.92) rotate(%s) translate(0 -%d)\"/>\n", a, r
        }
    }'
    echo '<ellipse cx="1020" cy="722" rx="82" ry="72" fill="url(#core)"/>'
    highlight 900 620 60 24 -30 0.25
    finish
}

lemon() {
    scene "#e4e9ef" "#cbd5e0" "#d7ccb7" "#bcab8f"
    shadow 760 862 330
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.4" cy="0.32" r="0.75"><stop offset="0" stop-color="#fff9b0"/><stop offset="0.4" stop-color="#ffe135"/><stop offset="0.85" stop-color="#e5b40c"/><stop offset="1" stop-color="#b08204"/></radialGradient>
</defs>
EOF
    leaf "translate(436 682) rotate(-150) scale(1.05)"
    leaf "translate(436 682) rotate(-118) scale(0.85)"
    cat <<'EOF'
<g transform="rotate(-10 800 620)">
<path d="M 420 620 Q 440 598 472 594 C 522 440 682 380 800 380 C 918 380 1078 440 1128 594 Q 1160 598 1182 620 Q 1160 642 1128 646 C 1078 800 918 860 800 860 C 682 860 522 800 472 646 Q 440 642 420 620 Z" fill="url(#skin)" filter="url(#peel)"/>
</g>
EOF
    highlight 700 500 150 40 -12 0.45
    highlight 980 770 120 16 -10 0.15
    finish
}

orange() {
    scene "#dfece9" "#bdd6d1" "#d6c2a0" "#b69c75"
    shadow 600 860 280
    shadow 1040 960 215
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.38" cy="0.32" r="0.75"><stop offset="0" stop-color="#ffc46a"/><stop offset="0.45" stop-color="#f7901e"/><stop offset="1" stop-color="#b04e0a"/></radialGradient>
<radialGradient id="pulp" gradientUnits="userSpaceOnUse" cx="0" cy="0" r="176"><stop offset="0" stop-color="#ffc55c"/><stop offset="0.55" stop-color="#fa9a22"/><stop offset="1" stop-color="#ea7a0c"/></radialGradient>
<path id="segment" d="M 0 -14 L -44 -164 A 170 170 0 0 1 44 -164 Z" fill="url(#pulp)" stroke="#ffe9c4" stroke-width="3" stroke-linejoin="round"/>
</defs>
<circle cx="600" cy="580" r="280" fill="url(#skin)" filter="url(#peel)"/>
<path d="M 600 318 l 10 -14 l 6 16 l 16 -2 l -10 12 l 10 12 l -16 -2 l -6 16 l -10 -14 l -10 14 l -6 -16 l -16 2 l 10 -12 l -10 -12 l 16 2 l 6 -16 Z" fill="#6f8a2a" transform="translate(0 -2)"/>
EOF
    highlight 500 470 90 130 30 0.35
    leaf "translate(612 312) rotate(-30) scale(0.9)"
    cat <<'EOF'
<ellipse cx="1040" cy="795" rx="212" ry="170" fill="#c4600e"/>
<ellipse cx="1040" cy="752" rx="212" ry="196" fill="url(#skin)"/>
<ellipse cx="1040" cy="750" rx="194" ry="178" fill="#ffe9c4"/>
EOF
    awk 'BEGIN {
        for (i = 0; i < 11; i++)
            printf "<use xlink:href=\"#segment\" transform=\"translate(1040 750) scale(1 0.92) rotate(%.2f)\"/>\n", i * 360 / 11
    }'
    echo '<ellipse cx="1040" cy="750" rx="16" ry="15" fill="#ffe9c4"/>'
    highlight 960 660 80 30 -25 0.3
    finish
}

pear() {
    scene "#ede6f1" "#d8cde4" "#cfba9a" "#ac9472"
    shadow 800 950 270
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.36" cy="0.55" r="0.7"><stop offset="0" stop-color="#f4f294"/><stop offset="0.45" stop-color="#c9d84b"/><stop offset="0.85" stop-color="#8eae2c"/><stop offset="1" stop-color="#5d7b19"/></radialGradient>
<path id="body" d="M 800 300 C 860 300 880 380 890 450 C 900 530 1060 590 1060 760 C 1060 900 930 950 800 950 C 670 950 540 900 540 760 C 540 590 700 530 710 450 C 720 380 740 300 800 300 Z"/>
<clipPath id="inside"><use xlink:href="#body"/></clipPath>
</defs>
<use xlink:href="#body" fill="url(#skin)"/>
<g clip-path="url(#inside)">
<ellipse cx="960" cy="720" rx="150" ry="200" fill="#f08a4b" opacity="0.3" filter="url(#soft)"/>
<ellipse cx="800" cy="315" rx="40" ry="18" fill="#4e5d14" opacity="0.4" filter="url(#contact)"/>
</g>
EOF
    scatter 41 110 540 330 520 620 |
        awk '{ printf "<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"#6b5a22\" opacity=\"0.4\" clip-path=\"url(#inside)\"/>\n", $1, $2 }'
    highlight 660 700 55 130 10 0.4
    highlight 770 430 18 60 5 0.3
    echo '<path d="M 800 312 C 796 262 810 222 842 192" fill="none" stroke="#6b4423" stroke-width="16" stroke-linecap="round"/>'
    leaf "translate(818 240) rotate(-25) scale(0.8)"
    finish
}

strawberry() {
    scene "#e2f0e5" "#c5dfcb" "#d9c6aa" "#b9a181"
    shadow 810 874 330
    cat <<'EOF'
<defs>
<radialGradient id="skin" cx="0.56" cy="0.3" r="0.75"><stop offset="0" stop-color="#ff7a74"/><stop offset="0.4" stop-color="#e3202d"/><stop offset="0.8" stop-color="#ad0f1e"/><stop offset="1" stop-color="#6e0611"/></radialGradient>
<linearGradient id="sepal" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#3f8a2a"/><stop offset="1" stop-color="#86c95a"/></linearGradient>
<path id="body" d="M 800 320 C 950 315 1075 380 1075 500 C 1075 640 940 820 825 905 C 810 917 790 917 775 905 C 660 820 525 640 525 500 C 525 380 650 315 800 320 Z"/>
<clipPath id="inside"><use xlink:href="#body"/></clipPath>
<g id="achene"><ellipse cx="0" cy="2" rx="10" ry="13" fill="#7a0a16" opacity="0.5"/><ellipse cx="0" cy="0" rx="5" ry="9" fill="#ffe27a"/></g>
<path id="sepalShape" d="M 0 0 C 40 -30 115 -32 175 0 C 115 32 40 30 0 0 Z" fill="url(#sepal)"/>
</defs>
<g transform="translate(0 30) rotate(-62 800 620)">
<use xlink:href="#body" fill="url(#skin)"/>
<g clip-path="url(#inside)">
EOF
    # Seeds on a slanting lattice, smaller where the berry curves away towards its edges.
    awk 'BEGIN {
        for (row = 0; row * 52 < 620; row++)
            for (col = 0; col * 58 < 620; col++) {
                x = 500 + col * 58 + (row % 2) * 29; y = 370 + row * 52
                d = (x - 800) / 290; k = 1 - 0.45 * d * d; if (k < 0.45) k = 0.45
                printf "<use xlink:href=\"#achene\" transform=\"translate(%d %d) scale(%.2f 1)\"/>\n", x, y, k
            }
    }'
    echo '</g>'
    highlight 900 430 120 36 8 0.4
    awk 'BEGIN {
        for (a = 0; a < 360; a += 360 / 7)
            printf "<use xlink:href=\"#sepalShape\" transform=\"translate(800 325) scale(1 0.5) rotate(%.1f)\"/>\n", a + 10
    }'
    cat <<'EOF'
<path d="M 800 325 C 796 280 800 245 818 215" fill="none" stroke="#3f7d22" stroke-width="18" stroke-linecap="round"/>
</g>
EOF
    finish
}

watermelon() {
    scene "#e2eef6" "#c6dbea" "#d5c09c" "#b39b73"
    shadow 800 885 360
    cat <<'EOF'
<defs>
<radialGradient id="flesh" gradientUnits="userSpaceOnUse" cx="800" cy="260" r="560"><stop offset="0" stop-color="#ff5a62"/><stop offset="0.8" stop-color="#ea3444"/><stop offset="0.95" stop-color="#f77d7d"/><stop offset="1" stop-color="#fbd1c0"/></radialGradient>
<path id="seed" d="M 0 -16 C 9 -8 9 8 0 14 C -9 8 -9 -8 0 -16 Z" fill="#1d1410"/>
</defs>
<g transform="translate(26 8)">
<path d="M 800 260 L 1128.6 785.8 A 620 620 0 0 1 471.4 785.8 Z" fill="#14401c"/>
</g>
<path d="M 800 260 L 1128.6 785.8 A 620 620 0 0 1 471.4 785.8 Z" fill="#1f5e2a"/>
<path d="M 800 260 L 1113.7 762.1 A 592 592 0 0 1 486.3 762.1 Z" fill="#6fae4a"/>
<path d="M 800 260 L 1102.1 743.5 A 570 570 0 0 1 497.9 743.5 Z" fill="#e9f2c8"/>
<path d="M 800 260 L 1092.5 728.1 A 552 552 0 0 1 507.5 728.1 Z" fill="url(#flesh)"/>
EOF
    # Seeds in three arcs about the tip, each pointing at it.
    awk 'BEGIN {
        split("260 360 450", radii, " ")
        for (r = 1; r <= 3; r++)
            for (a = -24 + (r % 2) * 5; a <= 24; a += 12 - r * 2)
                printf "<use xlink:href=\"#seed\" transform=\"rotate(%d 800 260) translate(800 %d)\"/>\n", a, 260 + radii[r]
    }'
    highlight 700 520 30 160 20 0.25
    finish
}

# MARK: - Run

for fruit in ${*:-$FRUITS}; do
    case " $FRUITS " in
    *" $fruit "*) ;;
    *) echo "make.sh: no drawing of '$fruit' (known: $FRUITS)" >&2 && exit 1 ;;
    esac
    "$fruit" >"$fruit.svg"
    vips copy "$fruit.svg" "$fruit.jpg[Q=86,strip,optimize_coding]"
    echo "$fruit.jpg: $(wc -c <"$fruit.jpg") bytes"
done
