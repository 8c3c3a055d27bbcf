<?php
/*
 * Plugin Name: inkpress head
 * Description: For a site without an SEO plugin: keeps the meta description and JSON-LD inkpress publishes with a post (post meta inkpress_description and inkpress_jsonld, writable over REST by users who may edit posts) and prints them in the head of the post's page.
 * Version: 1
 */
add_action('init', function () {
    foreach (['inkpress_description', 'inkpress_jsonld'] as $key) {
        register_post_meta('post', $key, [
            'type' => 'string',
            'single' => true,
            'show_in_rest' => true,
            'auth_callback' => function () { return current_user_can('edit_posts'); },
        ]);
    }
});

add_action('wp_head', function () {
    if (!is_singular('post')) {
        return;
    }
    $id = get_queried_object_id();
    $description = get_post_meta($id, 'inkpress_description', true);
    if ($description !== '') {
        echo '<meta name="description" content="' . esc_attr(wp_strip_all_tags(html_entity_decode($description))) . "\">\n";
    }
    // Decoded and encoded again: only valid JSON reaches the page, and no "</script>" can close the tag.
    $data = json_decode((string) get_post_meta($id, 'inkpress_jsonld', true));
    if ($data !== null) {
        echo '<script type="application/ld+json">' . wp_json_encode($data, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_HEX_TAG) . "</script>\n";
    }
}, 1);
