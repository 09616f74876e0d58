# Project-wide warnings; third-party headers come in as SYSTEM so they do not trip -Werror.
function(docs_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor)
  if(DOCS_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
