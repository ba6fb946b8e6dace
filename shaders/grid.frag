#version 330 core
// Anti-aliased grid: minor lines every uMinorSpacing, major lines every uMajorSpacing, over a
// translucent ground fill; minor lines fade out where they would alias, everything fades with
// distance from the camera.

in vec3 vWorldPos;

uniform vec3 uCameraPos;
uniform float uMinorSpacing;  // [m]
uniform float uMajorSpacing;  // [m]
uniform float uFadeDistance;  // [m] fully transparent beyond this
uniform vec4 uGroundColor;    // fill colour and opacity (opacity 0: grid lines only)
uniform vec4 uLineColor;

out vec4 fragColor;

float gridCoverage(vec2 p, float spacing) {
    vec2 cell = p / spacing;
    vec2 width = fwidth(cell);
    vec2 distToLine = abs(fract(cell - 0.5) - 0.5) / max(width, vec2(1e-6));
    return 1.0 - min(min(distToLine.x, distToLine.y), 1.0);
}

void main() {
    vec2 p = vWorldPos.xz;
    vec2 pixelSize = fwidth(p);
    float density = max(pixelSize.x, pixelSize.y);
    float minorVisible = 1.0 - smoothstep(0.3, 0.6, density / uMinorSpacing);
    float majorVisible = 1.0 - smoothstep(0.3, 0.6, density / uMajorSpacing);
    float minor = gridCoverage(p, uMinorSpacing) * minorVisible;
    float major = gridCoverage(p, uMajorSpacing) * majorVisible;

    float dist = length(vWorldPos - uCameraPos);
    float fade = 1.0 - smoothstep(uFadeDistance * 0.35, uFadeDistance, dist);
    float above = uCameraPos.y >= 0.0 ? 1.0 : 0.35;

    float line = max(minor * 0.45, major);
    vec3 color = mix(uGroundColor.rgb, uLineColor.rgb, line * uLineColor.a);
    float alpha = max(uGroundColor.a, line * uLineColor.a) * fade * above;
    fragColor = vec4(color, alpha);
}
