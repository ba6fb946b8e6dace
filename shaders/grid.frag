#version 330 core
// Anti-aliased grid: minor lines every uMinorSpacing, major lines every uMajorSpacing, over a
// translucent ground fill; minor lines fade out where they would alias, everything fades with
// distance from the camera. Soft contact shadows under the bodies (a disc per body, wider and
// fainter the higher it is) show how high things are.

in vec3 vWorldPos;

uniform vec3 uCameraPos;
uniform float uMinorSpacing;  // [m]
uniform float uMajorSpacing;  // [m]
uniform float uFadeDistance;  // [m] fully transparent beyond this
uniform vec4 uGroundColor;    // fill colour and opacity (opacity 0: grid lines only)
uniform vec4 uLineColor;
const int kMaxShadows = 64;
uniform vec4 uShadows[kMaxShadows];  // x, y: centre (world x, z); z: radius [m]; w: height of the underside [m]
uniform int uShadowCount;

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

    float shadow = 0.0;
    for (int i = 0; i < uShadowCount; ++i) {
        vec4 s = uShadows[i];
        float height = max(s.w, 0.0);
        float spread = s.z * 1.15 + 0.3 * height + 0.05;
        float d = length(p - s.xy) / spread;
        float strength = 0.55 / (1.0 + 0.6 * height);
        shadow = max(shadow, strength * (1.0 - smoothstep(0.35, 1.0, d)));
    }

    float line = max(minor * 0.45, major);
    vec3 color = mix(uGroundColor.rgb, uLineColor.rgb, line * uLineColor.a);
    color *= 1.0 - shadow;
    float alpha = max(max(uGroundColor.a, line * uLineColor.a), shadow) * fade * above;
    fragColor = vec4(color, alpha);
}
